import Foundation
import TestSupport
import Testing

@testable import AgentSkills

@Suite(.timeLimit(.minutes(10))) struct RobustnessTests {
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

  @Test(.timeLimit(.minutes(10))) func `a dropped changes stream unsubscribes`() async throws {
    let activations = SkillActivations()
    do {
      let stream = await activations.changes
      _ = stream
    }
    activations.activate("a")
    // The stream's termination handler runs when the stream is released; wait for it with a deadline.
    let deadline = ContinuousClock.now + .seconds(30)
    while activations.subscriberCount > 0, ContinuousClock.now < deadline {
      await Task.yield()
    }
    #expect(activations.subscriberCount == 0)
  }

  @Test(.timeLimit(.minutes(10))) func `relative paths are normalised lexically`() {
    #expect(RelativePath.normalized("a/./b//c") == "a/b/c")
    #expect(RelativePath.normalized("a/../b") == "b")
    #expect(RelativePath.normalized("../a") == nil)
    #expect(RelativePath.normalized("a/../../a") == nil)
    #expect(RelativePath.normalized("/etc/passwd") == nil)
    #expect(RelativePath.normalized("~/x") == nil)
    #expect(RelativePath.normalized(".") == nil)
    #expect(CountFormatting.grouped(1_048_576) == "1,048,576")
    #expect(CountFormatting.grouped(999) == "999")
  }

  @Test(.timeLimit(.minutes(10))) func `plain YAML scalars are classified as YAML 1.1 reads them`() {
    #expect(YAMLNode.plainScalarKind("42") == "number")
    #expect(YAMLNode.plainScalarKind("-1.5e3") == "number")
    #expect(YAMLNode.plainScalarKind("0x1F") == "number")
    #expect(YAMLNode.plainScalarKind("yes") == "boolean")
    #expect(YAMLNode.plainScalarKind("~") == "null")
    #expect(YAMLNode.plainScalarKind("1.0.2") == nil)
    #expect(YAMLNode.plainScalarKind("2024 notes") == nil)
    #expect(YAMLNode.plainScalarKind("e5") == nil)
  }
}
