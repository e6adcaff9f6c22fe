import Foundation
import ModelSession
import Testing

@testable import AgentSkills

/// Boundaries that planted bugs slipped past: the YAML depth limit and
/// aliases, byte windows over multi-byte text, and text with a NUL inside.
@Suite("Edge-case regressions", .timeLimit(.minutes(10))) struct EdgeCaseRegressionTests {
  /// `levels` nested flow sequences around one scalar: `[[…[x]…]]`.
  private func nested(_ levels: Int) -> String {
    String(repeating: "[", count: levels) + "x" + String(repeating: "]", count: levels) + "\n"
  }

  @Test func `YAML nested exactly to the depth limit reads, one level more is refused`() throws {
    #expect(YAMLReader.maximumDepth == 64)
    let parsed = try YAMLReader.parse(nested(64)).get()
    var node = try #require(parsed)
    var depth = 0
    while case .sequence(let items) = node.value, let first = items.first {
      depth += 1
      node = first
    }
    #expect(depth == 64)
    guard case .failure(let error) = YAMLReader.parse(nested(65)) else {
      Issue.record("65 nested levels were read")
      return
    }
    #expect(error.message == "YAML is nested more than 64 levels deep")
    // The 65th opening bracket: line 1, column 65.
    #expect((error.line, error.column) == (1, 65))
  }

  @Test func `the catalog shows an instructions skill as active only while it is`() async throws {
    let skills = Skills(activations: SkillActivations(), instructions: Instructions("Lead.")) {
      Skill(name: "tone", description: "House tone.", instructions: "Write warmly.", allowsDeactivation: true)
      Skill(name: "sql", description: "Reviews SQL.", prompt: "Check the joins.")
    }
    let inactive = try await skills.catalog(active: []).text
    #expect(inactive.contains("Skill: tone [inactive]\nDescription: House tone."), "\(inactive)")
    let active = try await skills.catalog(active: ["tone"]).text
    // Active, its instructions stand where the description was.
    #expect(active.contains("Skill: tone [active]\nWrite warmly."), "\(active)")
    #expect(!active.contains("House tone."), "\(active)")
    // A prompt skill has no active state.
    #expect(active.contains("Skill: sql [on demand]\nDescription: Reviews SQL."), "\(active)")
  }

  @Test func `a YAML alias in the front matter is named, never read as a value`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(
      "aliased", frontMatter: "name: aliased\ndescription: &d Reviews SQL.\ncompatibility: *d")
    let error = try #require(inspect(folder, mode: .strict).firstError, "an alias was read as a value")
    #expect(error.message.hasPrefix("compatibility must be a string, not an alias"), "\(error.message)")
    #expect(inspect(folder).skill?.frontMatter.compatibility == nil)
    // Line 1 is the opening `---`: the alias is on line 4, after `compatibility: `.
    #expect((error.line, error.column) == (4, 16))
  }

  /// `ab€cd日本\n`: a, b at 0 and 1, € at 2...4, c, d at 5 and 6, 日 at
  /// 7...9, 本 at 10...12, the line feed at 13; 14 bytes.
  private func skillWithText() throws -> (SkillFixture, LoadedSkill) {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("texts")
    try fixture.write("ab€cd日本\n", to: "texts/references/mixed.md")
    return (fixture, try SkillLoader().load(folder: folder))
  }

  @Test func `a byte window starts at its offset and never splits a character`() throws {
    let (fixture, skill) = try skillWithText()
    defer { _ = fixture }
    let path = "references/mixed.md"
    let cases: [(offset: Int, limit: Int, text: String, start: Int, end: Int)] = [
      (5, 2, "cd", 5, 7),  // from an offset, not from the start
      (0, 3, "ab", 0, 2),  // a limit inside € ends before it
      (3, 4, "cd", 5, 7),  // an offset inside € starts after it; the window ends before 日
      (7, 1, "日", 7, 10),  // a limit smaller than one character still gives that character
      (10, 100, "本\n", 10, 14),  // to the end of the file
    ]
    for expected in cases {
      let excerpt = try skill.readTextResource(path, offset: expected.offset, limit: expected.limit)
      #expect(excerpt.text == expected.text, "offset \(expected.offset), limit \(expected.limit)")
      #expect(excerpt.offset == expected.start, "offset \(expected.offset), limit \(expected.limit)")
      #expect(excerpt.endOffset == expected.end, "offset \(expected.offset), limit \(expected.limit)")
      #expect(excerpt.totalSize == 14)
    }
  }

  @Test func `a file with a NUL byte after its start is binary, whatever its first byte`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("nul")
    // A `.md` file is listed as text by its extension, but its bytes are checked when read;
    // a file without an extension is sniffed when the skill loads.
    try fixture.write(Data("text\u{0}more\n".utf8), to: "nul/references/data.md")
    try fixture.write(Data("text\u{0}more\n".utf8), to: "nul/references/data")
    let skill = try SkillLoader().load(folder: folder)
    #expect(throws: SkillResourceError.binary("references/data.md", skill: "nul", size: 10)) {
      try skill.readTextResource("references/data.md")
    }
    #expect(skill.resources.first { $0.path == "references/data" }?.isText == false)
    #expect(skill.resources.first { $0.path == "references/data.md" }?.isText == true)
  }
}
