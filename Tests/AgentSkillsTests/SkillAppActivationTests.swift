import AgentSkills
import Foundation
import ModelSession
import TestSupport
import Testing

private let styleGuide = "# Swift style\nUse guard for early exits."

/// A tool that activates a skill in `SkillActivations`, as an app's own code would mid-turn.
private struct AppActivatingTool: Tool {
  let name = "open_style_panel"
  let description = "Opens the style panel."
  let activations: SkillActivations
  let parameters: GenerationSchema

  init(activations: SkillActivations) throws {
    self.activations = activations
    parameters = try GenerationSchema(
      root: DynamicGenerationSchema(name: "NoArguments", properties: []), dependencies: [])
  }

  func call(arguments: GeneratedContent) async throws -> String {
    activations.activate("swift-style")
    return "Opened."
  }
}

@Suite("App activation through SkillActivations", .timeLimit(.minutes(10))) struct SkillAppActivationTests {
  private func catalog(_ activations: SkillActivations) -> Skills {
    Skills(activations: activations) {
      Skill(name: "swift-style", description: "The team's Swift style rules", prompt: styleGuide)
      Skill(name: "release-tone", description: "House tone", instructions: "Write in second person.")
    }
  }

  @Test func `a prompt skill's body is delivered before the next generation, and only once`() async throws {
    let activations = SkillActivations()
    let script = ModelScript([.text("Reviewed."), .text("Again.")])
    let profile = Profile { catalog(activations) }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    activations.activate("swift-style")
    #expect(activations.activeSkillNames == ["swift-style"])
    try await session.respond(to: "Review this.")

    let sent = script.requests[0].transcript
    #expect(sent.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput"])
    #expect(toolOutputTexts(sent) == [styleGuide])
    guard case .toolCalls(let calls) = sent[2] else {
      Issue.record("no activation call")
      return
    }
    #expect(calls.first?.metadata[Skills.activationSourceMetadataKey] == GeneratedContent("app"))
    #expect(promptTexts(session.transcript) == ["Review this."])
    // Delivered: it leaves the active set and is loaded.
    #expect(activations.activeSkillNames.isEmpty)
    #expect(activations.loadedSkillNames == ["swift-style"])

    try await session.respond(to: "And this.")
    #expect(toolOutputTexts(session.transcript) == [styleGuide])
    #expect(toolDefinitionsJSON(script.requests[0]) == toolDefinitionsJSON(script.requests[1]))
    #expect(requestInstructions(script.requests[0]) == requestInstructions(script.requests[1]))
  }

  @Test func `an activation during a tool loop is delivered at the next round`() async throws {
    let activations = SkillActivations()
    let script = ModelScript([.toolCall(name: "open_style_panel", arguments: "{}"), .text("Done.")])
    let panel = try AppActivatingTool(activations: activations)
    let profile = Profile {
      panel
      catalog(activations)
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "Open the panel.")
    #expect(script.requests[0].transcript.map(\.kindName) == ["instructions", "prompt"])
    #expect(
      script.requests[1].transcript.map(\.kindName) == [
        "instructions", "prompt", "toolCalls", "toolOutput", "toolCalls", "toolOutput",
      ])
    #expect(toolOutputTexts(session.transcript) == ["Opened.", styleGuide])
    #expect(activations.loadedSkillNames == ["swift-style"])
  }

  @Test func `a delivery whose turn failed is delivered again at the next turn`() async throws {
    struct Unreachable: Error {}
    let activations = SkillActivations()
    let script = ModelScript([.failure(Unreachable()), .text("Recovered.")])
    let profile = Profile { catalog(activations) }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    activations.activate("swift-style")
    await #expect(throws: Unreachable.self) { try await session.respond(to: "First try.") }
    #expect(toolOutputTexts(script.requests[0].transcript) == [styleGuide])
    #expect(session.transcript.isEmpty)

    try await session.respond(to: "Second try.")
    #expect(toolOutputTexts(script.requests[1].transcript) == [styleGuide])
    #expect(toolOutputTexts(session.transcript) == [styleGuide])
    #expect(activations.loadedSkillNames == ["swift-style"])
  }

  @Test func `an app delivery that reached the transcript is settled: later turns neither send nor note it`()
    async throws
  {
    let activations = SkillActivations()
    let script = ModelScript([.text("Reviewed."), .text("Again."), .text("Once more.")])
    let profile = Profile { catalog(activations) }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    activations.activate("swift-style")
    try await session.respond(to: "Review this.")
    let delivered = try #require(session.latestGenerationRecord).notes.map(\.names)
    #expect(delivered.contains([.deliveredByApp: ["swift-style"]]))

    for prompt in ["And this.", "And that."] {
      try await session.respond(to: prompt)
      let notes = try #require(session.latestGenerationRecord).notes.filter { $0.source == "skills" }
      #expect(notes.isEmpty, "\(prompt): \(notes.map(\.message))")
    }
    #expect(
      script.requests[2].transcript.map(\.kindName) == [
        "instructions", "prompt", "toolCalls", "toolOutput", "response", "prompt", "response", "prompt",
      ])
    #expect(toolOutputTexts(session.transcript) == [styleGuide])
  }

  @Test func `an app activation of a body the model already sees sends nothing`() async throws {
    let activations = SkillActivations()
    let script = ModelScript([
      .toolCall(name: Skills.activateToolName, arguments: #"{"skill":"swift-style"}"#), .text("One."),
      .text("Two."),
    ])
    let profile = Profile { catalog(activations) }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "First.")
    activations.activate("swift-style")
    try await session.respond(to: "Second.")
    #expect(toolOutputTexts(session.transcript) == [styleGuide])
    #expect(activations.activeSkillNames.isEmpty)
    #expect(activations.loadedSkillNames == ["swift-style"])
  }

  @Test func `an instructions skill the app activates joins the instructions`() async throws {
    let activations = SkillActivations()
    let script = ModelScript([.text("Notes.")])
    let profile = Profile { catalog(activations) }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    activations.activate("release-tone")
    try await session.respond(to: "Write notes.")
    #expect(
      requestInstructions(script.requests[0]).contains(
        "Skill: release-tone [active]\nWrite in second person."))
    #expect(session.transcript.map(\.kindName) == ["instructions", "prompt", "response"])
    #expect(activations.activeSkillNames == ["release-tone"])
  }
}
