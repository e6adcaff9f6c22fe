import Foundation
import ModelSession

/// Runs generations for ``ChatCompletionsLanguageModel``: builds the request
/// with ``RequestBuilder``, streams it through one shared
/// ``ChatCompletionsClient``, and sends the chunks to the session's channel
/// through ``EventTranslator``.
public struct ChatCompletionsExecutor: LanguageModelExecutor {
  /// What identifies the endpoint and credential: the base URL, the API key,
  /// the additional headers, and the client's timeout. Nothing per request.
  public struct Configuration: Hashable, Sendable {
    /// The endpoint and credential.
    public var endpoint: EndpointConfiguration
    /// The idle timeout of the shared client.
    public var timeout: TimeInterval

    /// Creates a configuration.
    public init(endpoint: EndpointConfiguration, timeout: TimeInterval = 60) {
      self.endpoint = endpoint
      self.timeout = timeout
    }
  }

  /// The model type.
  public typealias Model = ChatCompletionsLanguageModel

  /// The client every generation of this executor uses (one `URLSession`).
  public let client: ChatCompletionsClient

  /// Creates the executor and its client.
  public init(configuration: Configuration) {
    client = ChatCompletionsClient(endpoint: configuration.endpoint, timeout: configuration.timeout)
  }

  /// Streams one generation into the channel.
  ///
  /// - Throws: `LanguageModelError` where one fits (rate limit, context size,
  ///   timeout, content filter, refusal, unsupported transcript content),
  ///   else ``ChatCompletionsError``; `CancellationError` when cancelled.
  public func respond(
    to request: LanguageModelExecutorGenerationRequest, model: ChatCompletionsLanguageModel,
    streamingInto channel: LanguageModelExecutorGenerationChannel
  ) async throws {
    let body = try model.requestBuilder.body(for: request)
    var translator = EventTranslator()
    do {
      for try await chunk in try await client.streamChunks(requestBody: body) {
        try Task.checkCancellation()
        for event in try translator.translate(chunk) {
          await channel.send(event)
        }
      }
      try Task.checkCancellation()
      try translator.finish()
    } catch let failure as ChatCompletionsFailure {
      if Task.isCancelled { throw CancellationError() }
      throw failure.thrownError
    }
  }
}
