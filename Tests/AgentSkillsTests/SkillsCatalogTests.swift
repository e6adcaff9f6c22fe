import Foundation
import ModelSession
import Testing

@testable import AgentSkills

/// The catalog the `Skills` instructions render, by the state of each skill.
@Suite(.timeLimit(.minutes(10))) struct SkillsCatalogTests {
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
}
