import Foundation
import TestSupport
import Testing

@testable import AgentSkills

/// Front matter at the 1 MiB limit loads completely and correctly (its speed
/// is measured by contextkit-bench's skills/front-matter cases).
@Suite(.timeLimit(.minutes(10)))
struct LargeFrontMatterTests {
  @Test func `a 100,000-item flow sequence keeps every item in order`() throws {
    let text = LargeFrontMatter.flowSequence(name: "huge")
    #expect(text.utf8.count <= LargeFrontMatter.fileLimit)
    #expect(text.utf8.count > LargeFrontMatter.fileLimit - 100_000)
    let source = try SkillSourceText.parse(Array(text.utf8)).get()
    let root = try #require(try YAMLReader.parse(source.frontMatter).get())
    guard case .mapping(let pairs) = root.value, pairs.count == 3,
      case .sequence(let items) = pairs[2].value.value
    else {
      Issue.record("expected name, description and a sequence, got \(root.kindDescription)")
      return
    }
    #expect(items.count == 100_000)
    // Each item is "t" followed by its zero-padded index, the same width for all.
    let width = try #require(items.first?.scalarText).count
    #expect(items.first?.scalarText == "t" + String(repeating: "0", count: width - 1))
    #expect(items.last?.scalarText == "t" + String(repeating: "0", count: width - 6) + "99999")
    #expect(items[12_345].scalarText?.hasSuffix("12345") == true)
    #expect(items[12_345].line == 3)  // line 3 of the YAML text: line 4 of SKILL.md
  }

  @Test func `a block mapping that fills the file limit loads with every entry`() throws {
    let fixture = try SkillFixture()
    let (text, entries) = LargeFrontMatter.blockMapping(name: "wide")
    #expect(text.utf8.count <= LargeFrontMatter.fileLimit)
    try fixture.write(text, to: "wide/SKILL.md")
    let skill = try SkillLoader().load(folder: fixture.url("wide"))
    // One line per entry: "  k" + 7 digits + ": v\n" is 14 bytes, in what the head leaves of 1 MiB.
    #expect(entries == 74_891)  // (1,048,576 - 78 head - 18 tail bytes) / 14
    #expect(skill.frontMatter.metadata.count == entries)
    #expect(skill.frontMatter.metadata["k0000000"] == "v")
    #expect(skill.frontMatter.metadata["k" + String(entries - 1).leftPadded(to: 7)] == "v")
  }

  @Test func `a flow sequence under an unknown key loads with a warning that names the key`() throws {
    let fixture = try SkillFixture()
    try fixture.write(LargeFrontMatter.flowSequence(name: "huge"), to: "huge/SKILL.md")
    let report = SkillLoader().inspect(folder: fixture.url("huge"))
    #expect(report.skill?.name == "huge")
    #expect(report.diagnostics.map(\.message).contains { $0.contains("unknown front matter key \"tags\"") })
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
