import AgentSkills
import ModelSession
import Testing

/// The catalog's documented retention default reaches the history modifiers:
/// a quarter of what a modifier keeps, and at most 5,000 tokens a skill.
@Suite("Skills retention default", .timeLimit(.minutes(10))) struct SkillsRetentionDefaultTests {
  @Test func `by default a catalog retains a quarter of what a modifier keeps, at most 5,000 tokens a skill`()
    async throws
  {
    let skills = Skills(activations: SkillActivations()) {
      Skill(name: "sql", description: "Reviews SQL.", prompt: "Check the joins.")
    }
    var resolution = ProfileResolution()
    try await skills.resolve(into: &resolution)
    let retention = try #require(resolution.contextRetention)
    #expect(retention.budgetShare == 0.25)
    #expect(retention.itemTokenLimit == 5_000)
  }
}
