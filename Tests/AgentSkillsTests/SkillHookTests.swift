import AgentSkills
import Foundation
import ModelSession
import TestSupport
import Testing

private func toggle(_ name: String) -> ScriptStep {
  .toolCall(name: Skills.toggleToolName, arguments: #"{"skill":"\#(name)"}"#)
}

/// A catalog whose skills log their hooks: `activate:name` and `deactivate:name`.
private func catalog(_ activations: SkillActivations, log: CallLog) -> Skills {
  Skills(activations: activations) {
    Skill(
      name: "tone", description: "House tone", instructions: "Be warm.", allowsDeactivation: true,
      onActivate: { log.append("activate:tone") }, onDeactivate: { log.append("deactivate:tone") })
    Skill(
      name: "strict", description: "Strict review", instructions: "Be strict.",
      onActivate: { log.append("activate:strict") }, onDeactivate: { log.append("deactivate:strict") })
    Skill(
      name: "style", description: "Swift style", prompt: "Use guard for early exits.",
      onActivate: { log.append("activate:style") })
    Skill(
      name: "notes", description: "Release notes", prompt: "Write notes in the past tense.",
      onActivate: { log.append("activate:notes") })
  }
  .slashCommandActivation()
}

/// `onActivate` and `onDeactivate` run once per real change of a skill's
/// state, whoever makes it, and never for a request that changes nothing.
@Suite("Skill activation hooks", .timeLimit(.minutes(10))) struct SkillHookTests {
  @Test func `the model's toggles run each hook once per change, and not for one that is refused`()
    async throws
  {
    let activations = SkillActivations()
    let log = CallLog()
    let script = ModelScript([
      toggle("tone"), toggle("tone"),  // activated, then deactivated
      toggle("strict"), toggle("strict"),  // activated; deactivation refused
      toggle("style"), toggle("style"),  // delivered; already loaded
      .text("Done."),
    ])
    let profile = Profile { catalog(activations, log: log) }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "Work.")
    #expect(log.all == ["activate:tone", "deactivate:tone", "activate:strict", "activate:style"])
    #expect(activations.activeSkillNames == ["strict"])
    #expect(activations.loadedSkillNames == ["style"])
  }

  @Test func `a /name or an app delivery runs onActivate once, a skill already active not again`()
    async throws
  {
    let activations = SkillActivations()
    let log = CallLog()
    let script = ModelScript([.text("One."), .text("Two.")])
    let profile = Profile { catalog(activations, log: log) }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "Use /tone and /style.")
    #expect(log.all == ["activate:tone", "activate:style"])

    activations.activate("notes")
    try await session.respond(to: "Again /tone.")
    #expect(log.all == ["activate:tone", "activate:style", "activate:notes"])
    #expect(activations.activeSkillNames == ["tone"])
  }
}
