import AgentSkills
import ModelSession
import Testing

@Suite(.timeLimit(.minutes(10))) struct `A repeated skill name in a catalog` {
  @Test func `keeps the first skill of that name`() async throws {
    let skills = Skills(activations: SkillActivations()) {
      Skill(name: "tone", description: "First tone.", prompt: "Write warmly.")
      Skill(name: "sql", description: "Reviews SQL.", prompt: "Check the joins.")
      Skill(name: "tone", description: "Second tone.", prompt: "Write coldly.")
    }
    // Name order, and the first "tone" only.
    #expect(skills.skills.map(\.description) == ["Reviews SQL.", "First tone."])
    let text = try await skills.catalog(active: []).text
    #expect(text.contains("- tone (on demand): First tone."), "\(text)")
    #expect(!text.contains("Second tone."), "\(text)")
  }
}
