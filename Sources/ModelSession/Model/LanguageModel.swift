/// A language model that a `LanguageModelSession` can talk to.
///
/// A model is a small value that names an endpoint and says what it can do.
/// The work is done by its `Executor`, which the session creates once per
/// distinct `executorConfiguration` and reuses.
///
/// See docs/writing-a-provider.md for a complete walk-through.
public protocol LanguageModel: Sendable {
  /// The type that runs generations for this model.
  associatedtype Executor: LanguageModelExecutor where Executor.Model == Self

  /// What the model can do; the session refuses requests that need more.
  var capabilities: LanguageModelCapabilities { get }

  /// The values that identify the executor to use (endpoint, credential);
  /// never per-request data.
  var executorConfiguration: Executor.Configuration { get }
}

/// Runs generations for a `LanguageModel`, streaming what the model produces
/// into a channel. The session owns the transcript and the tool loop.
public protocol LanguageModelExecutor: Sendable {
  /// What identifies an executor: two models with equal configurations share one.
  associatedtype Configuration: Hashable & Sendable
  /// The model type this executor serves.
  associatedtype Model: LanguageModel

  /// Creates an executor, throwing when the configuration is unusable.
  init(configuration: Configuration) throws

  /// Runs one generation: translates `request`, calls the model, and sends
  /// each piece of output to `channel` as it arrives.
  func respond(
    to request: LanguageModelExecutorGenerationRequest, model: Model,
    streamingInto channel: LanguageModelExecutorGenerationChannel
  ) async throws

  /// Prepares for a request that will start with `transcript` (load weights,
  /// open a connection, fill a cache). Optional.
  func prewarm(model: Model, transcript: Transcript)
}

extension LanguageModelExecutor {
  /// Does nothing.
  public func prewarm(model: Model, transcript: Transcript) {}
}
