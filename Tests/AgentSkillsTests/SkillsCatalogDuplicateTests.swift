import AgentSkills
import ModelSession
import Testing

@Suite("A repeated skill name in a catalog", .timeLimit(.minutes(10))) struct SkillsCatalogDuplicateTests {
  @Test func `keeps the first skill of that name`() async throws {
    let skills = Skills(activations: SkillActivations()) {
      Skill(name: "tone", description: "First tone.", prompt: "Write warmly.")
      Skill(name: "sql", description: "Reviews SQL.", prompt: "Check the joins.")
      Skill(name: "tone", description: "Second tone.", prompt: "Write coldly.")
    }
    // The order given, and the first "tone" only.
    #expect(skills.skills.map(\.description) == ["First tone.", "Reviews SQL."])
    let text = try await skills.catalog(active: []).text
    #expect(text.contains("Skill: tone [on demand]\nDescription: First tone."), "\(text)")
    #expect(!text.contains("Second tone."), "\(text)")
  }
}
