import CacheAnalysis
import ContextKitDemo
import ModelSession
import Synchronization
import TestSupport
import Testing

@Suite("Reprocessing floor", .timeLimit(.minutes(10))) struct ReprocessingFloorTests {
  /// A switch flipped between turns.
  final class Switch: Sendable {
    let isOn = Mutex(false)
  }

  /// Adds `four five` to the instructions while on: an instructions skill, in miniature.
  struct ExtraInstructions: DynamicInstructions {
    let isOn: Switch

    var body: ProfileContent { ProfileContent() }

    func resolve(into resolution: inout ProfileResolution) async throws {
      if isOn.isOn.withLock({ $0 }) { resolution.append(Instructions("four five")) }
    }
  }

  @Test func `counts new prompts, tool outputs and changed instructions, not the model output`()
    async throws
  {
    let script = ModelScript([
      .text("r0 r1"), .toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#), .text("ok"), .text("fine"),
      .text("back"),
    ])
    let extra = ExtraInstructions(isOn: Switch())
    let profile = Profile {
      Instructions("one two three")
      WeatherTool()
      extra
    }
    .compactingHistory(tokenBudget: 10_000)
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    var iterator = session.generationRecords.makeAsyncIterator()
    try await session.respond(to: "a b c d")
    try await session.respond(to: "e f")
    extra.isOn.isOn.withLock { $0 = true }
    try await session.respond(to: "g h i")
    extra.isOn.isOn.withLock { $0 = false }
    try await session.respond(to: "j k")
    var records: [GenerationRecord] = []
    for _ in 0..<5 {
      records.append(try #require(await iterator.next()))
    }

    let counts = try await ReprocessingFloor.newTokenCounts(
      of: records, model: PromptCacheModel(tokenCounter: WordTokenCounter(toolDefinitionTokens: 100)))
    // 1: the weather tool (100), the instructions (3), the prompt (4).
    // 2: the prompt (2); the answer "r0 r1" came from the model.
    // 3: the tool's output "It is 21°C in Oslo." (5); the call came from the model.
    // 4: the instructions, now "one two three four five" (5), and the prompt (3).
    // 5: the instructions, back to "one two three" (3: the server holds the
    //    previous request's, not an older one's), and the prompt (2).
    #expect(counts == [107, 2, 5, 8, 5])
  }
}
