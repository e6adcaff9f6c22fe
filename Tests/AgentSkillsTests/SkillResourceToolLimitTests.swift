import Foundation
import ModelSession
import Testing

@testable import AgentSkills

/// The read tool's `offset` and `limit` arguments at their bounds: a limit of 1
/// is the smallest read and 0 is refused; a limit over 32 KiB is cut to 32 KiB.
@Suite("Resource tool argument limits", .timeLimit(.minutes(10))) struct SkillResourceToolLimitTests {
  /// A loaded prompt skill `long` with `references/long.md` of 32,769 bytes
  /// (32 × 1,024 = 32,768, and one more), delivered so that the tool reads it.
  private func readTool() async throws -> (SkillFixture, SkillResourceTool) {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("long")
    try fixture.write(String(repeating: "a", count: 32_769), to: "long/references/long.md")
    let activations = SkillActivations()
    _ = activations.markLoaded("long")
    let skill = Skill(loaded: try SkillLoader().load(folder: folder))
    let tool = try #require(try SkillResourceTool(skills: [skill], activations: activations))
    return (fixture, tool)
  }

  private func read(_ tool: SkillResourceTool, _ extra: String) async throws -> String {
    let arguments = try GeneratedContent(json: #"{"skill":"long","path":"references/long.md"\#(extra)}"#)
    return try await tool.call(arguments: arguments).text
  }

  @Test func `a limit past 32 KiB reads 32 KiB`() async throws {
    let (fixture, tool) = try await readTool()
    defer { _ = fixture }
    let output = try await read(tool, #","limit":32769"#)
    #expect(
      output.hasPrefix(
        "<skill_resource skill=\"long\" path=\"references/long.md\" bytes=\"0-32768 of 32769\">"))
    #expect(output.hasSuffix("1 more bytes: call read_skill_resource again with offset 32768 to continue."))
  }

  @Test func `a limit of 1 reads one byte; a limit of 0 or a negative offset is refused`() async throws {
    let (fixture, tool) = try await readTool()
    defer { _ = fixture }
    let one = try await read(tool, #","limit":1"#)
    #expect(
      one.hasPrefix("<skill_resource skill=\"long\" path=\"references/long.md\" bytes=\"0-1 of 32769\">\na\n")
    )
    #expect(
      try await read(tool, #","limit":0"#)
        == "Error: offset must be 0 or more and limit more than 0 (got offset 0, limit 0).")
    #expect(
      try await read(tool, #","offset":-1"#)
        == "Error: offset must be 0 or more and limit more than 0 (got offset -1, limit 32768).")
    let last = try await read(tool, #","offset":32768"#)
    #expect(
      last.hasPrefix(
        "<skill_resource skill=\"long\" path=\"references/long.md\" bytes=\"32768-32769 of 32769\">"))
  }
}
