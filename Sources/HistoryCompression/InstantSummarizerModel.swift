import ModelSession

/// A summarizer for benchmarks that answers at once with a fixed summary.
struct InstantSummarizerModel: LanguageModel {
  struct Executor: LanguageModelExecutor {
    typealias Model = InstantSummarizerModel

    init(configuration: String) throws {}

    func respond(
      to request: LanguageModelExecutorGenerationRequest, model: InstantSummarizerModel,
      streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
      await channel.send(
        .response(entryID: "summary", action: .appendText("A fixed summary for benchmarks.", tokenCount: 6)))
    }
  }

  var capabilities: LanguageModelCapabilities { [] }
  var executorConfiguration: String { "instant" }
}
