import AgentSkills
import ModelSession
import Testing

@Suite("Skills builder", .timeLimit(.minutes(10))) struct SkillsBuilderTests {
  private func skills(@SkillsBuilder _ build: () -> [Skill]) -> [Skill] { build() }

  private func skill(_ name: String) -> Skill {
    Skill(name: name, description: "The \(name) skill.", prompt: "Follow \(name).")
  }

  @Test func `an optional skill adds itself when present and nothing when nil`() {
    let present: Skill? = skill("present")
    let missing: Skill? = nil
    let built = skills {
      skill("first")
      present
      missing
      skill("last")
    }
    #expect(built.map(\.name) == ["first", "present", "last"])
  }

  @Test func `if, if-else and for build what the branches and the loop hold`() {
    let withExtras = true
    let withFallback = false
    let built = skills {
      if withExtras {
        for name in ["extra-a", "extra-b"] { skill(name) }
      }
      if withFallback {
        skill("fallback")
      } else {
        skill("no-fallback")
      }
      if !withExtras { skill("never") }
    }
    #expect(built.map(\.name) == ["extra-a", "extra-b", "no-fallback"])
  }

  @Test func `an empty builder builds no skills`() {
    #expect(skills {}.isEmpty)
  }
}
