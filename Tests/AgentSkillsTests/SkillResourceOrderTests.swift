import AgentSkills
import Testing

/// A skill's resources are listed sorted by path (byte order of the whole
/// path), not in the order a walk of the folder meets them.
@Suite("Skill resource order", .timeLimit(.minutes(10))) struct SkillResourceOrderTests {
  @Test func `resources are sorted by their whole path, not folder by folder`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("ordered")
    for path in ["a/z.md", "a-b.md", "a.md", "B.md"] { try fixture.write("x", to: "ordered/" + path) }
    let skill = try SkillLoader().load(folder: folder)
    // "B" (0x42) sorts before "a"; "-" (0x2D) and "." (0x2E) before "/" (0x2F).
    #expect(skill.resources.map(\.path) == ["B.md", "a-b.md", "a.md", "a/z.md"])
  }
}
