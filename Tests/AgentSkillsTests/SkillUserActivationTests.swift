import AgentSkills
import Foundation
import ModelSession
import TestSupport
import Testing

private let styleGuide = "# Swift style\nUse guard for early exits."

@Suite("User activation with /name", .timeLimit(.minutes(10))) struct SkillUserActivationTests {
  private func styleCatalog(_ activations: SkillActivations) -> Skills {
    Skills(activations: activations) {
      Skill(name: "swift-style", description: "The team's Swift style rules", prompt: styleGuide)
      Skill(name: "release-tone", description: "House tone", instructions: "Write in second person.")
    }
    .slashCommandActivation()
  }

  @Test func `a skill delivered before the first generation does not make it a later round`() async throws {
    let script = ModelScript([.toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#), .text("Reviewed.")])
    let profile = Profile {
      "You review code."
      styleCatalog(SkillActivations())
      WeatherTool()
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(
      to: "Please /swift-style review this.", options: GenerationOptions(toolCallingMode: .required))
    // The first request ends with the delivery's tool output, yet it is the
    // turn's first round: a tool call is still required there, not after.
    #expect(
      script.requests[0].transcript.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput"])
    #expect(script.requests.map(\.generationOptions.toolCallingMode) == [.required, .allowed])
  }

  @Test func `a prompt skill's body is delivered after the prompt, which stays as written`() async throws {
    let activations = SkillActivations()
    let script = ModelScript([.text("Reviewed."), .text("Again.")])
    let profile = Profile {
      "You review code."
      styleCatalog(activations)
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    let records = session.generationRecords
    try await session.respond(to: "Please /swift-style review this.")

    let sent = script.requests[0].transcript
    #expect(sent.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput"])
    #expect(toolOutputTexts(sent) == [styleGuide])
    #expect(promptTexts(session.transcript) == ["Please /swift-style review this."])
    #expect(
      session.transcript.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])
    guard case .toolCalls(let calls) = session.transcript[2], let call = calls.first else {
      Issue.record("no activation call after the prompt")
      return
    }
    #expect(call.toolName == Skills.activateToolName)
    #expect(call.arguments.jsonString == #"{"skill":"swift-style"}"#)
    #expect(call.metadata[Skills.activationSourceMetadataKey] == GeneratedContent("user"))
    #expect(activations.loadedSkillNames == ["swift-style"])
    #expect(activations.activeSkillNames.isEmpty)
    let note = try #require(
      await firstRecords(records, count: 1).first?.notes.first { $0.kind == .information })
    #expect(note.names == [.deliveredByUser: ["swift-style"]])

    // The next turn, without /name, delivers nothing; the body is sent once.
    try await session.respond(to: "Thanks.")
    #expect(toolOutputTexts(session.transcript) == [styleGuide])
    // Nothing the cache holds changed: the same instructions and tool definitions.
    #expect(requestInstructions(script.requests[0]) == requestInstructions(script.requests[1]))
    #expect(toolDefinitionsJSON(script.requests[0]) == toolDefinitionsJSON(script.requests[1]))
  }

  @Test func `an instructions skill joins the instructions of the same generation`() async throws {
    let activations = SkillActivations()
    let script = ModelScript([.text("Hello."), .text("Notes.")])
    let profile = Profile {
      "You write release notes."
      styleCatalog(activations)
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    let records = session.generationRecords
    try await session.respond(to: "Hello")
    try await session.respond(to: "/release-tone Write the notes for 2.0")
    #expect(!requestInstructions(script.requests[0]).contains("Write in second person."))
    let instructions = requestInstructions(script.requests[1])
    #expect(instructions.contains("Skill: release-tone [active]\nWrite in second person."))
    #expect(!instructions.contains("release-tone [inactive]"))
    #expect(
      session.transcript.map(\.kindName) == ["instructions", "prompt", "response", "prompt", "response"])
    #expect(promptTexts(session.transcript) == ["Hello", "/release-tone Write the notes for 2.0"])
    #expect(activations.activeSkillNames == ["release-tone"])
    // Rewriting the instructions costs the cache, and the record of that generation says so.
    let notes = try #require(await firstRecords(records, count: 2).last?.notes)
    #expect(notes.filter { $0.kind == .instructionsChanged }.map(\.names) == [[.activated: ["release-tone"]]])
    #expect(notes.filter { $0.kind == .information }.map(\.names) == [[.activated: ["release-tone"]]])
  }

  @Test func `several names in one prompt: instructions skills join, prompt skills come in one call entry`()
    async throws
  {
    let activations = SkillActivations()
    let script = ModelScript([.text("ok")])
    let profile = Profile {
      Skills(activations: activations) {
        Skill(name: "a-guide", description: "A", prompt: "Body A.")
        Skill(name: "b-guide", description: "B", prompt: "Body B.")
        Skill(name: "tone", description: "Tone", instructions: "Be warm.")
      }
      .slashCommandActivation()
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "Use /b-guide, /tone and /a-guide; then /b-guide again.")
    let sent = script.requests[0].transcript
    #expect(sent.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput", "toolOutput"])
    #expect(toolOutputTexts(sent) == ["Body B.", "Body A."])
    #expect(requestInstructions(script.requests[0]).contains("Be warm."))
    #expect(activations.loadedSkillNames == ["a-guide", "b-guide"])
  }

  @Test func `unknown names are left alone, with a note`() async throws {
    let activations = SkillActivations()
    let script = ModelScript([.text("ok")])
    let profile = Profile { styleCatalog(activations) }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    let records = session.generationRecords
    try await session.respond(to: "Look in /tmp and try /no-such-skill on src/swift-style")
    #expect(script.requests[0].transcript.map(\.kindName) == ["instructions", "prompt"])
    #expect(promptTexts(session.transcript) == ["Look in /tmp and try /no-such-skill on src/swift-style"])
    #expect(activations.loadedSkillNames.isEmpty && activations.activeSkillNames.isEmpty)
    let notes = try #require(await firstRecords(records, count: 1).first?.notes)
    #expect(notes.map(\.kind) == [.information])
    #expect(notes.map(\.names) == [[.unknownCommands: ["tmp", "no-such-skill"]]])
  }

  @Test func `without the option, /name is plain text`() async throws {
    let activations = SkillActivations()
    let script = ModelScript([.text("ok")])
    let profile = Profile { styleCatalog(activations).slashCommandActivation(false) }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "/swift-style /release-tone")
    #expect(script.requests[0].transcript.map(\.kindName) == ["instructions", "prompt"])
    #expect(activations.activeSkillNames.isEmpty)
    #expect(!requestInstructions(script.requests[0]).contains("Write in second person."))
  }

  @Test func `a body the model already sees is not sent again`() async throws {
    let activations = SkillActivations()
    let script = ModelScript([.text("One."), .text("Two.")])
    let profile = Profile { styleCatalog(activations) }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    let records = session.generationRecords
    try await session.respond(to: "/swift-style first")
    try await session.respond(to: "/swift-style second")
    #expect(toolOutputTexts(session.transcript) == [styleGuide])
    let second = try #require(await firstRecords(records, count: 2).last)
    #expect(second.notes.map(\.names) == [[.alreadyVisible: ["swift-style"]]])
  }

  @Test func `only the first generation of a turn reads the prompt`() async throws {
    let activations = SkillActivations()
    let script = ModelScript([.toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#), .text("Sunny.")])
    let profile = Profile {
      WeatherTool()
      styleCatalog(activations)
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "/swift-style weather?")
    #expect(toolOutputTexts(session.transcript).filter { $0 == styleGuide }.count == 1)
    #expect(
      session.transcript.map(\.kindName) == [
        "instructions", "prompt", "toolCalls", "toolOutput", "toolCalls", "toolOutput", "response",
      ])
  }

  @Test
  func `an instructions skill the model switches off after /name stays off for the turn's later rounds`()
    async throws
  {
    let activations = SkillActivations()
    let script = ModelScript([
      .toolCall(name: Skills.toggleToolName, arguments: #"{"skill":"tone"}"#), .text("Done."),
    ])
    let profile = Profile {
      Skills(activations: activations) {
        Skill(name: "tone", description: "Tone", instructions: "Be warm.", allowsDeactivation: true)
      }
      .slashCommandActivation()
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "/tone then switch it off")
    // The prompt is read at the turn's first round only: the second round must not activate it again.
    #expect(requestInstructions(script.requests[0]).contains("Skill: tone [active]\nBe warm."))
    #expect(!requestInstructions(script.requests[1]).contains("Be warm."))
    #expect(requestInstructions(script.requests[1]).contains("Skill: tone [inactive]\nDescription: Tone"))
    #expect(activations.activeSkillNames == [])
    #expect(
      toolOutputTexts(session.transcript) == [
        "Successfully deactivated skill: tone"
      ])
  }

  @Test func `a body a restored state calls loaded is delivered for /name when this transcript lacks it`()
    async throws
  {
    // The state was saved in another conversation, where the body was in view; this one starts empty.
    let activations = SkillActivations(
      SkillActivationsSnapshot(activeSkillNames: [], loadedSkillNames: ["swift-style"]))
    let script = ModelScript([.text("Reviewed.")])
    let profile = Profile { styleCatalog(activations) }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "/swift-style review this")
    #expect(toolOutputTexts(session.transcript) == [styleGuide])
    #expect(
      script.requests[0].transcript.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput"])
    #expect(activations.loadedSkillNames == ["swift-style"])
  }
}
