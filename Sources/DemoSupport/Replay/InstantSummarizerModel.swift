import ModelSession

/// A summarizer for benchmarks that answers at once with a fixed summary.
public struct InstantSummarizerModel: LanguageModel {
  /// Its executor: one fixed answer per request.
  public struct Executor: LanguageModelExecutor {
    /// The model type.
    public typealias Model = InstantSummarizerModel

    /// Creates the executor.
    public init(configuration: String) throws {}

    /// Sends the fixed summary.
    public func respond(
      to request: LanguageModelExecutorGenerationRequest, model: InstantSummarizerModel,
      streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
      await channel.send(
        .response(entryID: "summary", action: .appendText("A fixed summary for benchmarks.", tokenCount: 6)))
    }
  }

  /// No capabilities beyond text.
  public var capabilities: LanguageModelCapabilities { [] }
  /// One executor for every instance.
  public var executorConfiguration: String { "instant" }

  /// Creates the model.
  public init() {}
}
