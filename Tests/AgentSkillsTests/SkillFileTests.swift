import AgentSkills
import Foundation
import TestSupport
import Testing

/// Odd SKILL.md texts, and what each must give: an error located in the file,
/// or (for a valid skill with odd markdown) a loaded skill, with a warning when one is named.
private let oddInputs: [(text: String, error: Bool, warning: String?)] = [
  ("", true, nil), ("---", true, nil), ("---\n---", true, nil), ("---\n:\n---", true, nil),
  ("---\n[\n---", true, nil), ("---\n{a: *b}\n---", true, nil), ("---\n&a x: *a\n---", true, nil),
  ("---\n" + String(repeating: "[", count: 200) + "\n---", true, nil), ("---\nname: \u{0}\n---", true, nil),
  ("---\n!!binary x: y\n---", true, nil),
  ("---\nname: a\ndescription: b\n---\n" + String(repeating: "> ", count: 500) + "[x](", false, nil),
  (
    "---\nname: a\ndescription: b\n---\n[a](../../../../etc/passwd) [b](/etc/passwd) [c](%2e%2e/x) [d](<>)",
    false, "leaves the skill folder"
  ),
]

@Suite(.timeLimit(.minutes(10))) struct SkillFileTests {
  @Test(.timeLimit(.minutes(10))) func `a file without front matter is an error on line 1`() throws {
    let fixture = try SkillFixture()
    try fixture.write("# Just markdown\n", to: "plain/SKILL.md")
    let report = inspect(fixture.url("plain"))
    let error = try #require(report.firstError)
    #expect(error.message.hasPrefix("no front matter"))
    #expect((error.line, error.column) == (1, 1))
  }

  @Test(.timeLimit(.minutes(10))) func `unterminated front matter says so`() throws {
    let fixture = try SkillFixture()
    try fixture.write("---\nname: open\ndescription: Never closed.\n# Body\n", to: "open/SKILL.md")
    let error = try #require(inspect(fixture.url("open")).firstError)
    #expect(error.message.hasPrefix("unterminated front matter: no closing ---"))
  }

  @Test(.timeLimit(.minutes(10))) func `a YAML syntax error reports libyaml's line`() throws {
    let fixture = try SkillFixture()
    try fixture.write(
      "---\nname: broken\ndescription: \"unclosed\nlicense: MIT\n---\nBody\n", to: "broken/SKILL.md")
    let error = try #require(inspect(fixture.url("broken")).firstError)
    #expect(
      error.message
        == "YAML syntax error: found unexpected end of stream "
        + "(while scanning a quoted scalar that begins on line 3)")
    #expect((error.line, error.column) == (5, 1))

    // The fallback folds the description's two lines, but the list item after it still fails: the
    // first parse's error is the one reported.
    try fixture.write(
      "---\nname: tab\ndescription: x\n  bad: indent: here\n- item\n---\nBody\n", to: "tab/SKILL.md")
    let second = try #require(inspect(fixture.url("tab")).firstError)
    #expect(second.message == "YAML syntax error: mapping values are not allowed in this context")
    #expect((second.line, second.column) == (4, 6))
  }

  @Test(.timeLimit(.minutes(10))) func `CRLF line endings and a byte order mark are handled`() throws {
    let fixture = try SkillFixture()
    let text =
      "\u{FEFF}---\r\nname: windows\r\ndescription: Written on Windows.\r\n---\r\n# Title\r\n\r\nLine one.\r\n"
    try fixture.write(text, to: "windows/SKILL.md")
    let skill = try SkillLoader(mode: .strict).load(folder: fixture.url("windows"))
    #expect(skill.description == "Written on Windows.")
    #expect(skill.body == "# Title\n\nLine one.\n")
    #expect(skill.bodyFirstLine == 5)
    #expect(skill.sections == [SkillSection(level: 1, title: "Title", line: 5)])
  }

  @Test(.timeLimit(.minutes(10))) func `a delimiter line may end in spaces or a tab`() throws {
    let fixture = try SkillFixture()
    try fixture.write("---  \nname: spaced\ndescription: Spaced.\n---\t\n# Body\n", to: "spaced/SKILL.md")
    let skill = try SkillLoader(mode: .strict).load(folder: fixture.url("spaced"))
    #expect(skill.description == "Spaced.")
    #expect(skill.body == "# Body\n")
    #expect(skill.bodyFirstLine == 5)
  }

  @Test(.timeLimit(.minutes(10))) func `lone CR line endings (classic Mac) are read as LF`() throws {
    let fixture = try SkillFixture()
    try fixture.write(
      "---\rname: classic\rdescription: Written on a classic Mac.\r---\r# Title\r\rLine one.\r\n",
      to: "classic/SKILL.md")
    let skill = try SkillLoader(mode: .strict).load(folder: fixture.url("classic"))
    #expect(skill.description == "Written on a classic Mac.")
    // The last line ends in CR LF: one newline, not two.
    #expect(skill.body == "# Title\n\nLine one.\n")
    #expect(skill.bodyFirstLine == 5)
    #expect(skill.sections == [SkillSection(level: 1, title: "Title", line: 5)])
  }

  @Test(.timeLimit(.minutes(10))) func `unicode text is kept and counted in characters`() throws {
    let fixture = try SkillFixture()
    let description =
      "Résumés en français, 日本語の要約, and emoji 🧭 — all fine. " + String(repeating: "é", count: 960)
    #expect(description.unicodeScalars.count <= 1024)
    try fixture.write(
      "---\nname: unicode\ndescription: \(description)\n---\n# Überblick 🧭\n\nTexte.\n",
      to: "unicode/SKILL.md")
    let skill = try SkillLoader(mode: .strict).load(folder: fixture.url("unicode"))
    #expect(skill.description == description)
    #expect(skill.sections.first?.title == "Überblick 🧭")
  }

  @Test(.timeLimit(.minutes(10))) func `invalid UTF-8 is an error at the bad byte`() throws {
    let fixture = try SkillFixture()
    var bytes = Data("---\nname: bytes\ndescription: ok\n---\nfine\nbad ".utf8)
    bytes.append(contentsOf: [0xC3, 0x28, 0x0A])
    try fixture.write(bytes, to: "bytes/SKILL.md")
    let error = try #require(inspect(fixture.url("bytes")).firstError)
    #expect(error.message.hasPrefix("SKILL.md is not valid UTF-8"))
    #expect((error.line, error.column) == (6, 5))
  }

  @Test(.timeLimit(.minutes(10))) func `a SKILL.md over 1 MiB is refused before parsing`() throws {
    let fixture = try SkillFixture()
    let body = String(repeating: "word ", count: 220_000)
    try fixture.write("---\nname: huge\ndescription: Too big.\n---\n\(body)", to: "huge/SKILL.md")
    let error = try #require(inspect(fixture.url("huge")).firstError)
    #expect(error.message.hasPrefix("SKILL.md is 1,100,041 bytes; the limit is 1,048,576 bytes."))
  }

  @Test(.timeLimit(.minutes(10))) func `an empty body is a warning`() throws {
    let fixture = try SkillFixture()
    try fixture.write("---\nname: hollow\ndescription: Nothing inside.\n---\n", to: "hollow/SKILL.md")
    let skill = try SkillLoader(mode: .strict).load(folder: fixture.url("hollow"))
    #expect(skill.body.isEmpty)
    #expect(skill.diagnostics.map(\.severity) == [.warning])
    #expect(skill.diagnostics.first?.message.hasPrefix("the body is empty") == true)
  }

  @Test(.timeLimit(.minutes(10))) func `a folder without SKILL.md is an error`() throws {
    let fixture = try SkillFixture()
    try fixture.write("notes", to: "nothing/README.md")
    #expect(
      errors(inspect(fixture.url("nothing"))) == [
        "no SKILL.md in this folder; a skill is a folder holding SKILL.md"
      ])
    try fixture.write("---\nname: lower\ndescription: x\n---\n", to: "lower/skill.md")
    #expect(errors(inspect(fixture.url("lower"))) == ["the file is named skill.md; rename it to SKILL.md"])
    #expect(errors(inspect(fixture.url("absent"))) == ["no such folder"])
  }

  @Test(.timeLimit(.minutes(10))) func `a SKILL.md symlink that leaves the folder is not read`() throws {
    let fixture = try SkillFixture()
    try fixture.write("---\nname: outside\ndescription: x\n---\nSecret\n", to: "elsewhere/SKILL.md")
    try fixture.link("escape/SKILL.md", to: fixture.url("elsewhere/SKILL.md").path)
    let error = try #require(inspect(fixture.url("escape")).firstError)
    #expect(error.message.hasPrefix("SKILL.md is a symbolic link; it must be a regular file"))
  }

  @Test(.timeLimit(.minutes(10)), arguments: oddInputs.indices)
  func `odd input gives a located error or a skill, never a crash`(index: Int) throws {
    let input = oddInputs[index]
    let fixture = try SkillFixture()
    try fixture.write(input.text, to: "a/SKILL.md")
    let lineCount = input.text.split(separator: "\n", omittingEmptySubsequences: false).count
    for mode in [SkillValidationMode.lenient, .strict] {
      let report = inspect(fixture.url("a"), mode: mode)
      if input.error {
        let error = try #require(report.firstError, "input \(index) in \(mode) mode gave no error")
        #expect(!error.message.isEmpty)
        // In SKILL.md, at a line of it (0: the file as a whole).
        #expect(error.path.hasSuffix("a/SKILL.md"), "input \(index): \(error)")
        #expect((0...lineCount).contains(error.line), "input \(index): \(error)")
      } else if mode == .lenient {
        #expect(report.firstError == nil, "input \(index): \(report.diagnostics)")
      }
      if let warning = input.warning {
        #expect(report.diagnostics.contains { $0.message.contains(warning) }, "\(report.diagnostics)")
      }
    }
  }
}

extension SkillFileTests {
  @Test(.timeLimit(.minutes(10)))
  func `mutated SKILL.md files load or come back with a diagnostic that says where and what`() throws {
    let fixture = try SkillFixture()
    let original = Array(
      """
      ---
      name: fuzz
      description: "A skill: with quotes, [brackets], {braces} and a long line"
      metadata:
        activation: instructions
        allows-deactivation: "true"
      allowed-tools: Read Write
      ---
      # Title

      Text with a [link](references/a.md) and `code`.

      ## Sub
      - item
      > quote
      """.utf8)
    let alphabet = Array("-:\n\r\t \"'[]{}#&*!|>%@`\\\u{FEFF}é".utf8) + [0x00, 0xFF, 0xC3]
    var random = SeededGenerator(seed: 42)
    let loader = SkillLoader(mode: .strict)
    var loaded = 0
    var rejected = 0
    var undecodable = 0
    for _ in 0..<300 {
      var bytes = original
      for _ in 0..<Int.random(in: 1...8, using: &random) {
        let index = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes[index] = alphabet.randomElement(using: &random) ?? 0
        case 1: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: index)
        default: if bytes.count > 1 { bytes.remove(at: index) }
        }
      }
      try fixture.write(Data(bytes), to: "fuzz/SKILL.md")
      let report = loader.inspect(folder: fixture.url("fuzz"))
      let file = String(decoding: bytes, as: UTF8.self)
      if let skill = report.skill {
        loaded += 1
        // The folder is named fuzz, and a skill's name must equal its folder's name.
        #expect(skill.name == "fuzz", "loaded a skill named \(skill.name) from:\n\(file)")
      } else {
        rejected += 1
        let error = try #require(report.firstError, "no skill and no error for:\n\(file)")
        #expect(!error.message.isEmpty)
      }
      // The standard library's decoder is the reference for what is valid UTF-8.
      if String(validating: bytes, as: UTF8.self) == nil {
        undecodable += 1
        #expect(report.skill == nil, "loaded a SKILL.md that is not UTF-8")
        #expect(
          report.diagnostics.contains { $0.isError && $0.message.contains("not valid UTF-8") },
          "no encoding error for: \(report.diagnostics.map(\.message))")
      }
      // Lines a diagnostic can point at: every LF, CRLF or lone CR starts one, and one past the end.
      let lineBreaks = bytes.indices.filter {
        bytes[$0] == 0x0A || (bytes[$0] == 0x0D && bytes[$0 + 1 < bytes.count ? $0 + 1 : $0] != 0x0A)
      }.count
      for diagnostic in report.diagnostics {
        #expect(!diagnostic.message.isEmpty)
        #expect(diagnostic.path.hasSuffix("fuzz/SKILL.md"), "diagnostic names \(diagnostic.path)")
        #expect(
          diagnostic.line >= 0 && diagnostic.line <= lineBreaks + 2,
          "line \(diagnostic.line) of \(lineBreaks + 1)")
        #expect(diagnostic.column >= 0)
      }
    }
    // The mutations reach both outcomes and the decoder's error, or the checks above test little.
    #expect(loaded > 0)
    #expect(rejected > 0)
    #expect(undecodable > 0)
  }
}
