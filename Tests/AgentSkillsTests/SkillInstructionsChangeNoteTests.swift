import AgentSkills
import ModelSession
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct SkillInstructionsChangeNoteTests {
  /// The `instructionsChanged` note names the instructions skills switched and,
  /// when they bring tools, those tools; a `toolsChanged` note then names the
  /// tools added or removed (the messages are pinned in `Skills note texts`).
  @Suite("Instructions change note") struct Contents {
    @Test func `activating and deactivating a skill with tools say so, and that the tool list changed`()
      async throws
    {
      let toggle = Skills.toggleToolName
      let script = ModelScript([
        .toolCall(name: toggle, arguments: #"{"skill":"reports"}"#),
        .toolCall(name: toggle, arguments: #"{"skill":"reports"}"#),
        .text("Done."),
      ])
      let profile = Profile {
        Skills(activations: SkillActivations()) {
          Skill(
            name: "reports", description: "Fetches reports", instructions: "Fetch the report first.",
            allowsDeactivation: true, tools: [ReportTool(text: "All good.")])
          Skill(name: "tone", description: "Tone", instructions: "Be warm.", allowsDeactivation: true)
        }
      }
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
      let stream = session.generationRecords
      try await session.respond(to: "Go")
      let records = await firstRecords(stream, count: 3)
      let notes = records.map { $0.notes.filter { $0.kind == .instructionsChanged }.map(\.names) }
      #expect(
        notes == [
          [],
          [[.activated: ["reports"], .tools: ["fetch_report"]]],
          [[.deactivated: ["reports"], .tools: ["fetch_report"]]],
        ])
      let tools = records.map { $0.notes.filter { $0.kind == .toolsChanged }.map(\.names) }
      #expect(
        tools == [
          [],
          [[.activated: ["reports"], .added: ["fetch_report"]]],
          [[.deactivated: ["reports"], .removed: ["fetch_report"]]],
        ])
    }

    @Test func `a skill without tools does not claim the tool list changed`() async throws {
      let toggle = Skills.toggleToolName
      let script = ModelScript([.toolCall(name: toggle, arguments: #"{"skill":"tone"}"#), .text("Done.")])
      let profile = Profile {
        Skills(activations: SkillActivations()) {
          Skill(name: "tone", description: "Tone", instructions: "Be warm.", allowsDeactivation: true)
        }
      }
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
      let stream = session.generationRecords
      try await session.respond(to: "Go")
      let records = await firstRecords(stream, count: 2)
      #expect(
        records[1].notes.filter { $0.kind == .instructionsChanged }.map(\.names) == [[.activated: ["tone"]]])
      #expect(!records[1].notes.contains { $0.kind == .toolsChanged })
    }
  }

  @Suite("Instructions change note order") struct Order {
    @Test func `several skills switched at once are named in name order, activated before deactivated`()
      async throws
    {
      let activations = SkillActivations(active: ["mid", "beta"])
      let script = ModelScript([.text("One."), .text("Two.")])
      let profile = Profile {
        Skills(activations: activations) {
          Skill(name: "zeta", description: "Z", instructions: "Zed.", allowsDeactivation: true)
          Skill(name: "mid", description: "M", instructions: "Middle.", allowsDeactivation: true)
          Skill(name: "alpha", description: "A", instructions: "First.", allowsDeactivation: true)
          Skill(name: "beta", description: "B", instructions: "Second.", allowsDeactivation: true)
        }
      }
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
      let stream = session.generationRecords
      try await session.respond(to: "One")
      activations.activate("zeta")
      activations.activate("alpha")
      activations.deactivate("mid")
      activations.deactivate("beta")
      try await session.respond(to: "Two")
      let records = await firstRecords(stream, count: 2)
      #expect(
        records.map { $0.notes.filter { $0.kind == .instructionsChanged }.map(\.names) } == [
          [], [[.activated: ["alpha", "zeta"], .deactivated: ["beta", "mid"]]],
        ])
    }
  }
}
