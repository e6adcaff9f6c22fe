import AgentSkills
import Foundation
import ModelSession
import TestSupport
import Testing

/// What a skill the model activated leaves behind when its turn fails after
/// the activation: the transcript keeps nothing of the turn, so a prompt
/// skill's body is not in the history any more and must be delivered again;
/// an instructions skill stays active (activation is app state, not history).
@Suite("Model activation in a turn that fails", .timeLimit(.minutes(10)))
struct SkillModelActivationFailedTurnTests {
  private struct Unreachable: Error {}

  private func catalog(_ activations: SkillActivations) -> Skills {
    Skills(activations: activations) {
      Skill(
        name: "swift-style", description: "The team's Swift style rules", prompt: "Use guard for early exits."
      )
      Skill(name: "release-tone", description: "House tone", instructions: "Write in second person.")
    }
  }

  @Test func `a prompt skill activated in a failed turn is delivered in full when the model asks again`()
    async throws
  {
    let activations = SkillActivations()
    let script = ModelScript([
      .toolCall(name: "activate_skill", arguments: #"{"skill":"swift-style"}"#),
      .failure(Unreachable()),
      .toolCall(name: "activate_skill", arguments: #"{"skill":"swift-style"}"#),
      .text("Reviewed."),
    ])
    let profile = Profile { catalog(activations) }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    await #expect(throws: Unreachable.self) { try await session.respond(to: "Review this.") }
    #expect(toolOutputTexts(script.requests[1].transcript) == ["Use guard for early exits."])
    #expect(session.transcript.isEmpty)

    try await session.respond(to: "Review this, please.")
    // Not "already loaded": the failed turn's delivery is gone with the turn.
    #expect(toolOutputTexts(session.transcript) == ["Use guard for early exits."])
    #expect(promptTexts(session.transcript) == ["Review this, please."])
    #expect(activations.loadedSkillNames == ["swift-style"])
  }

  @Test
  func `an instructions skill activated in a failed turn stays active into the next turn's instructions`()
    async throws
  {
    let activations = SkillActivations()
    let script = ModelScript([
      .toolCall(name: "activate_skill", arguments: #"{"skill":"release-tone"}"#),
      .failure(Unreachable()),
      .text("You can now upgrade."),
    ])
    let profile = Profile { catalog(activations) }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    await #expect(throws: Unreachable.self) { try await session.respond(to: "Announce the release.") }
    #expect(!requestInstructions(script.requests[0]).contains("Write in second person."))
    #expect(requestInstructions(script.requests[1]).contains("Write in second person."))
    #expect(session.transcript.isEmpty)
    #expect(activations.activeSkillNames == ["release-tone"])

    try await session.respond(to: "Announce it again.")
    #expect(requestInstructions(script.requests[2]).contains("Write in second person."))
    #expect(script.requests[2].transcript.map(\.kindName) == ["instructions", "prompt"])
  }
}
