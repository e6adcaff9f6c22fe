import Foundation
import TestSupport
import Testing

@testable import AgentSkills

@Test func `mutated SKILL.md files never crash the loader`() throws {
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
    #expect(report.skill != nil || report.firstError != nil)
    for diagnostic in report.diagnostics {
      #expect(!diagnostic.message.isEmpty)
      #expect(diagnostic.line >= 0 && diagnostic.column >= 0)
    }
  }
}

@Test func `a dropped changes stream unsubscribes`() async throws {
  let activations = SkillActivations()
  do {
    let stream = await activations.changes
    _ = stream
  }
  await activations.activate("a")
  // The stream's termination handler runs when the stream is released; wait for it with a deadline.
  let deadline = ContinuousClock.now + .seconds(30)
  while await activations.subscriberCount > 0, ContinuousClock.now < deadline {
    await Task.yield()
  }
  #expect(await activations.subscriberCount == 0)
}

@Test func `relative paths are normalised lexically`() {
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

@Test func `plain YAML scalars are classified as YAML 1.1 reads them`() {
  #expect(YAMLNode.plainScalarKind("42") == "number")
  #expect(YAMLNode.plainScalarKind("-1.5e3") == "number")
  #expect(YAMLNode.plainScalarKind("0x1F") == "number")
  #expect(YAMLNode.plainScalarKind("yes") == "boolean")
  #expect(YAMLNode.plainScalarKind("~") == "null")
  #expect(YAMLNode.plainScalarKind("1.0.2") == nil)
  #expect(YAMLNode.plainScalarKind("2024 notes") == nil)
  #expect(YAMLNode.plainScalarKind("e5") == nil)
}
