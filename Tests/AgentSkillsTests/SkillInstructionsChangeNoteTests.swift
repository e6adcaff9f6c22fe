import AgentSkills
import ModelSession
import TestSupport
import Testing

/// The `instructionsChanged` note says which instructions skill changed and,
/// when the skill brings tools, that the tool list changed too.
@Suite(.timeLimit(.minutes(10))) struct `Instructions change note` {
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
    let records = await collectRecords(stream, count: 3)
    let notes = records.map { $0.notes.filter { $0.kind == .instructionsChanged }.map(\.message) }
    let rewritten =
      "the instructions were rewritten, so a prompt cache is invalidated from the instructions on"
    #expect(
      notes == [
        [],
        ["instructions skill activated reports: \(rewritten); the tool list changed too"],
        ["instructions skill deactivated reports: \(rewritten); the tool list changed too"],
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
    let records = await collectRecords(stream, count: 2)
    #expect(
      records[1].notes.filter { $0.kind == .instructionsChanged }.map(\.message) == [
        "instructions skill activated tone: the instructions were rewritten, so a prompt cache is invalidated "
          + "from the instructions on"
      ])
  }
}

@Suite(.timeLimit(.minutes(10))) struct `Instructions change note order` {
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
    let records = await collectRecords(stream, count: 2)
    #expect(
      records.map { $0.notes.filter { $0.kind == .instructionsChanged }.map(\.message) } == [
        [],
        [
          "instructions skill activated alpha, zeta; deactivated beta, mid: the instructions were rewritten, "
            + "so a prompt cache is invalidated from the instructions on"
        ],
      ])
  }
}
