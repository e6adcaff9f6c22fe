import AgentSkills
import Foundation
import ModelSession
import TestSupport
import Testing

@Suite("Which skills are in play", .timeLimit(.minutes(10))) struct SkillsInPlayTests {
  @Test func `a delivered prompt skill is loaded until a modifier drops it, and the stream says both`()
    async throws
  {
    let activations = SkillActivations()
    let changes = await activations.changes
    let script = ModelScript([
      .toolCall(name: Skills.activateToolName, arguments: #"{"skill":"swift-style"}"#), .text("One."),
      .toolCall(name: Skills.activateToolName, arguments: #"{"skill":"tone"}"#), .text("Two."),
      .text("Three."),
    ])
    let profile = Profile {
      Skills(activations: activations) {
        Skill(name: "swift-style", description: "Style rules", prompt: "Use guard.")
        Skill(name: "tone", description: "Tone", instructions: "Be warm.")
      }
    }
    .historyTransform(currentTurnOnly(fromTurn: 3))
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "First")
    #expect(activations.loadedSkillNames == ["swift-style"])
    #expect(activations.isLoaded("swift-style"))
    #expect(activations.activeSkillNames == [])
    try await session.respond(to: "Second")
    #expect(activations.loadedSkillNames == ["swift-style"])
    #expect(activations.activeSkillNames == ["tone"])
    try await session.respond(to: "Third")
    #expect(activations.loadedSkillNames == [])
    #expect(activations.activeSkillNames == ["tone"])

    let expected = [
      SkillActivationsSnapshot(activeSkillNames: [], loadedSkillNames: ["swift-style"]),
      SkillActivationsSnapshot(activeSkillNames: ["tone"], loadedSkillNames: ["swift-style"]),
      SkillActivationsSnapshot(activeSkillNames: ["tone"], loadedSkillNames: []),
    ]
    #expect(await firstElements(expected.count, of: changes) == expected)
  }
}
