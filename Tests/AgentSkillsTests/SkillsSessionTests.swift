import AgentSkills
import Foundation
import ModelSession
import TestSupport
import Testing

private func activate(_ name: String, tool: String = Skills.activateToolName) -> ScriptStep {
  .toolCall(name: tool, arguments: #"{"skill":"\#(name)"}"#)
}

private let styleGuide = "# Swift style\nUse guard for early exits."

@Suite("Skills through a session", .timeLimit(.minutes(10))) struct SkillsSessionTests {
  @Test
  func `a prompt skill is delivered as the tool output, once while visible, and the prefix stays the same`()
    async throws
  {
    let activations = SkillActivations()
    let script = ModelScript([
      activate("swift-style"), .text("Reviewed."), activate("swift-style"), .text("Again."),
    ])
    let profile = Profile {
      "You review code."
      Skills(activations: activations) {
        Skill(name: "swift-style", description: "The team's Swift style rules", prompt: styleGuide)
      }
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "Review this.")
    try await session.respond(to: "And this.")
    let outputs = toolOutputTexts(session.transcript)
    #expect(outputs.count == 2)
    #expect(outputs[0] == styleGuide)
    #expect(outputs[1].contains("already loaded"))
    #expect(activations.activeSkillNames.isEmpty)
    let instructions = script.requests.map(requestInstructions)
    #expect(Set(instructions).count == 1)
    #expect(
      instructions[0].contains("Skill: swift-style [on demand]\nDescription: The team's Swift style rules"))
    #expect(!instructions[0].contains("guard for early exits"))
    let schemas = script.requests.map { $0.enabledToolDefinitions.map(\.parameters.jsonSchema.jsonString) }
    #expect(Set(schemas).count == 1)
  }

  @Test func `a prompt skill dropped from the visible history is delivered again`() async throws {
    let activations = SkillActivations()
    let script = ModelScript([activate("swift-style"), .text("One."), activate("swift-style"), .text("Two.")])
    let profile = Profile {
      Skills(activations: activations) {
        Skill(name: "swift-style", description: "Style rules", prompt: styleGuide)
      }
    }
    .historyTransform { history in
      // Keep only the instructions and the current turn: older tool outputs disappear.
      guard let lastPrompt = history.lastIndex(where: { if case .prompt = $0 { true } else { false } }) else {
        return history
      }
      return Transcript(entries: history.prefix(1) + history[lastPrompt...])
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "First")
    try await session.respond(to: "Second")
    #expect(toolOutputTexts(session.transcript) == [styleGuide, styleGuide])
  }

  @Test func `an instructions skill joins the instructions from the next generation and the record says so`()
    async throws
  {
    let activations = SkillActivations()
    let script = ModelScript([activate("release-tone"), .text("Done.")])
    let profile = Profile {
      "You write release notes."
      Skills(activations: activations) {
        Skill(name: "release-tone", description: "House tone", instructions: "Write in second person.")
        Skill(name: "swift-style", description: "Style rules", prompt: styleGuide)
      }
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    let records = session.generationRecords
    try await session.respond(to: "Write notes.")
    #expect(activations.isActive("release-tone"))
    let before = requestInstructions(script.requests[0])
    let after = requestInstructions(script.requests[1])
    #expect(!before.contains("Write in second person."))
    #expect(before.contains("Skill: release-tone [inactive]\nDescription: House tone"))
    #expect(after.contains("Skill: release-tone [active]\nWrite in second person."))
    #expect(!after.contains("House tone"))
    #expect(
      script.requests[0].enabledToolDefinitions.map(\.parameters)
        == script.requests[1].enabledToolDefinitions.map(\.parameters))
    let collected = await firstRecords(records, count: 2)
    #expect(!collected[0].notes.contains { $0.kind == .instructionsChanged })
    let note = try #require(collected[1].notes.first { $0.kind == .instructionsChanged })
    #expect(note.names(.activated) == ["release-tone"])
  }

  @Test func `deactivation follows each skill's rule`() async throws {
    let activations = SkillActivations()
    let toggle = Skills.toggleToolName
    let script = ModelScript([
      activate("tone", tool: toggle), activate("tone", tool: toggle), activate("strict", tool: toggle),
      activate("strict", tool: toggle), .text("ok"),
    ])
    let profile = Profile {
      Skills(activations: activations) {
        Skill(name: "tone", description: "Tone", instructions: "Be warm.", allowsDeactivation: true)
        Skill(name: "strict", description: "Strict", instructions: "Be strict.")
      }
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "Go")
    #expect(script.requests[0].enabledToolDefinitions.map(\.name) == [toggle])
    let outputs = toolOutputTexts(session.transcript)
    #expect(
      Array(outputs.prefix(3)) == [
        "Successfully activated skill: tone", "Successfully deactivated skill: tone",
        "Successfully activated skill: strict",
      ])
    #expect(outputs[3].contains("cannot be deactivated; nothing changed"))
    #expect(activations.activeSkillNames == ["strict"])
    #expect(requestInstructions(script.requests[1]).contains("Be warm."))
    #expect(!requestInstructions(script.requests[2]).contains("Be warm."))
    #expect(!requestInstructions(script.requests[4]).contains("Be warm."))
    #expect(requestInstructions(script.requests[4]).contains("Be strict."))
  }

  @Test func `a skill's tools are offered only while it is active`() async throws {
    let activations = SkillActivations(active: [])
    let script = ModelScript([
      activate("forecasting", tool: Skills.toggleToolName),
      .toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#),
      .text("21."), .text("bye"),
    ])
    let weather = WeatherTool()
    let profile = Profile {
      Skills(activations: activations) {
        Skill(
          name: "forecasting", description: "Weather lookups", instructions: "Use the weather tool.",
          allowsDeactivation: true, tools: [weather])
      }
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "Weather?")
    #expect(
      script.requests.map { $0.enabledToolDefinitions.map(\.name) } == [
        [Skills.toggleToolName], [Skills.toggleToolName, "weather"], [Skills.toggleToolName, "weather"],
      ])
    #expect(weather.calls.all == ["Oslo"])
    _ = activations.deactivate("forecasting")
    try await session.respond(to: "Thanks")
    #expect(script.requests[3].enabledToolDefinitions.map(\.name) == [Skills.toggleToolName])
  }

  @Test func `no skills means no tool and no catalog`() async throws {
    let script = ModelScript([.text("ok")])
    let profile = Profile {
      "Plain."
      Skills(activations: SkillActivations(), skills: [])
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "Hi")
    let request = try #require(script.requests.first)
    #expect(request.enabledToolDefinitions.isEmpty)
    #expect(requestInstructions(request) == "Plain.")
  }

  @Test func `an unknown skill name is answered with the available names`() async throws {
    let script = ModelScript([activate("nope"), .text("ok")])
    let profile = Profile {
      Skills(activations: SkillActivations()) {
        Skill(name: "alpha", description: "A", prompt: "a")
        Skill(name: "beta", description: "B", prompt: "b")
      }
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "Hi")
    let output = try #require(toolOutputTexts(session.transcript).first)
    #expect(output.contains("\"alpha\"") && output.contains("\"beta\""))
  }

  @Test func `activations saved to disk restore the instructions in a new session`() async throws {
    let folder = try TemporaryFolder(named: "ck")
    defer { folder.remove() }
    let file = folder.url("skills.json")
    func profile(_ activations: SkillActivations) -> some DynamicProfile {
      Profile {
        Skills(activations: activations) {
          Skill(name: "tone", description: "Tone", instructions: "Be warm.")
        }
      }
    }
    let first = SkillActivations()
    let script = ModelScript([activate("tone"), .text("ok"), .text("again")])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile(first))
    try await session.respond(to: "Hi")
    try await first.save(to: file)

    let restored = SkillActivations()
    try await restored.load(from: file)
    let next = LanguageModelSession(
      model: ScriptedLanguageModel(script: script), profile: profile(restored), history: session.transcript)
    try await next.respond(to: "Hello again")
    #expect(requestInstructions(script.requests[2]).contains("Be warm."))
  }

  @Test func `skills loaded from SkillsLibrary work in a session`() async throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "../../SkillsLibrary"
    ).standardizedFileURL
    let library = try SkillsLibrary(root: root, mode: .strict)
    let skills = library.skills
    #expect(skills.count >= 8)
    let promptSkill = try #require(skills.first { !$0.isInstructionsSkill })
    let script = ModelScript([
      .toolCall(name: Skills.toggleToolName, arguments: #"{"skill":"\#(promptSkill.name)"}"#), .text("ok"),
    ])
    let activations = SkillActivations()
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile { Skills(activations: activations, skills: skills) })
    try await session.respond(to: "Help")
    let output = try #require(toolOutputTexts(session.transcript).first)
    let loaded = try #require(library.skill(named: promptSkill.name))
    #expect(!loaded.resources.isEmpty)
    // The body as written in its own tag, then the list of files in another.
    #expect(
      output.hasPrefix(
        "<skill_content name=\"\(loaded.name)\">\n\(loaded.body)\n</skill_content>\n"
          + "<skill_resources name=\"\(loaded.name)\">\n"))
    #expect(output.hasSuffix("\n</skill_resources>"))
    for resource in loaded.resources {
      #expect(output.contains("\n- \(resource.path) (\(resource.isText ? "text" : "binary"), "))
    }
  }
}
