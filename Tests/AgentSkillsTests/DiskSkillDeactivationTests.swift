import AgentSkills
import Foundation
import ModelSession
import TestSupport
import Testing

/// Skills loaded from disk follow `metadata.allows-deactivation`: an
/// instructions skill without it stays active when the model asks again.
@Suite(.timeLimit(.minutes(10)))
struct DiskSkillDeactivationTests {
  private static func toggle(_ name: String) -> ScriptStep {
    .toolCall(name: Skills.toggleToolName, arguments: #"{"skill":"\#(name)"}"#)
  }

  @Test func `an instructions skill from disk stays active unless its front matter allows deactivation`()
    async throws
  {
    let fixture = try SkillFixture()
    try fixture.skill(
      "house-style",
      frontMatter: """
        name: house-style
        description: Writes in the house style when drafting release notes.
        metadata:
          activation: instructions
        """, body: "# House style\n\nUse short sentences.\n")
    try fixture.skill(
      "casual-tone",
      frontMatter: """
        name: casual-tone
        description: Writes casually when the user asks for a relaxed tone.
        metadata:
          activation: instructions
          allows-deactivation: "true"
        """, body: "# Casual\n\nBe relaxed.\n")
    let library = try SkillsLibrary(root: fixture.root, mode: .strict)
    #expect(library.skill(named: "house-style")?.allowsDeactivation == false)
    #expect(library.skill(named: "casual-tone")?.allowsDeactivation == true)

    let script = ModelScript([
      Self.toggle("house-style"), Self.toggle("house-style"), Self.toggle("casual-tone"),
      Self.toggle("casual-tone"), .text("done"),
    ])
    let activations = SkillActivations()
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile { Skills(activations: activations, skills: library.skills) })
    try await session.respond(to: "Draft the notes.")

    let outputs = session.transcript.compactMap { entry -> String? in
      guard case .toolOutput(let output) = entry else { return nil }
      return output.segments.joinedText
    }
    #expect(outputs.count == 4)
    #expect(outputs[1].contains("cannot be deactivated; nothing changed"))
    #expect(outputs[3] == "Successfully deactivated skill: casual-tone")
    #expect(activations.activeSkillNames == ["house-style"])
  }
}
