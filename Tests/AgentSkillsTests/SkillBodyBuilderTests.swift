import AgentSkills
import ModelSession
import TestSupport
import Testing

@Suite("A skill body built with instructions and tools", .timeLimit(.minutes(10)))
struct SkillBodyBuilderTests {
  @Test func `the builder keeps instructions and tools apart, in the order written`() throws {
    let skill = Skill(name: "forecast", description: "Weather forecasts", tools: [FailingTool()]) {
      Instructions {
        "Give the forecast in Celsius."
        "Name the city first."
      }
      WeatherTool()
      if false { "Never written." }
    }
    guard case .instructions(let instructions, let allowsDeactivation, let tools) = skill.content else {
      Issue.record("an instructions skill was expected")
      return
    }
    #expect(instructions.text == "Give the forecast in Celsius.\nName the city first.")
    #expect(!allowsDeactivation)
    // The tools given as an argument come first, then those of the body.
    #expect(tools.map(\.name) == ["explode", "weather"])
  }

  @Test func `once the skill is active, its tools are offered and its instructions join the catalog`()
    async throws
  {
    let activations = SkillActivations()
    let script = ModelScript([
      .toolCall(name: Skills.activateToolName, arguments: #"{"skill":"forecast"}"#),
      .toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#),
      .text("Cold."),
    ])
    let profile = Profile {
      Skills(activations: activations) {
        Skill(name: "forecast", description: "Weather forecasts") {
          Instructions("Give the forecast in Celsius.")
          WeatherTool()
        }
      }
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "Weather in Oslo?")
    let offered = script.requests.map { $0.enabledToolDefinitions.map(\.name) }
    #expect(
      offered == [
        [Skills.activateToolName], [Skills.activateToolName, "weather"],
        [Skills.activateToolName, "weather"],
      ])
    let instructions = script.requests.map { request -> String in
      guard case .instructions(let entry) = request.transcript.first else { return "" }
      return entry.segments.joinedText
    }
    #expect(!instructions[0].contains("Give the forecast in Celsius."))
    #expect(instructions[1].contains("Give the forecast in Celsius."))
    // A tool adds no text to the instructions.
    #expect(!instructions[1].contains("weather"))
    #expect(activations.isActive("forecast"))
  }
}
