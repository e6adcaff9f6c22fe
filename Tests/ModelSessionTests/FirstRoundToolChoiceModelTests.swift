import ModelSession
import TestSupport
import Testing

@Suite("First-round tool choice model", .timeLimit(.minutes(10))) struct FirstRoundToolChoiceModelTests {
  @Test func `a turn's first round offers only the chosen tool, the round after its output every tool`()
    async throws
  {
    let script = ModelScript([
      .toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#), .text("Mild."), .text("Hello."),
    ])
    let model = FirstRoundToolChoiceModel(ScriptedLanguageModel(script: script))
    let session = LanguageModelSession(model: model, tools: [WeatherTool(), FailingTool()])
    model.choose("weather")
    #expect(model.chosenToolName == "weather")
    try await session.respond(to: "Weather in Oslo?")
    model.choose(nil)
    try await session.respond(to: "Hi.")
    #expect(
      script.requests.map { $0.enabledToolDefinitions.map(\.name) } == [
        ["weather"], ["weather", "explode"], ["weather", "explode"],
      ])
  }

  @Test func `it reports the wrapped model's window`() async throws {
    let model = FirstRoundToolChoiceModel(ScriptedLanguageModel(script: ModelScript(), contextSize: 2_048))
    #expect(try await model.contextSize == 2_048)
  }
}
