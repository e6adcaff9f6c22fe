import Foundation
import HTTPStreaming
import ModelSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs generations for ``ChatCompletionsLanguageModel``: builds the request
/// with `RequestBuilder`, streams it through one shared
/// ``ChatCompletionsClient``, and sends the chunks to the session's channel
/// through `EventTranslator`.
public struct ChatCompletionsExecutor: LanguageModelExecutor {
  /// What identifies the endpoint and credential: the base URL, the API key,
  /// the additional headers, the redirect policy, and the client's timeouts.
  /// Nothing per request.
  public struct Configuration: Hashable, Sendable {
    /// The endpoint and credential.
    public var endpoint: EndpointConfiguration
    /// The timeouts of the shared client.
    public var timeouts: ChatCompletionsTimeouts
    /// The session whose configuration carries the requests through
    /// `URLSession`; `nil` for the platform's default transport (libcurl on
    /// Linux). Compared by identity.
    public var urlSession: URLSession?

    /// Creates a configuration; `timeout` is the first-byte and idle timeout.
    public init(endpoint: EndpointConfiguration, timeout: TimeInterval = 60) {
      self.init(endpoint: endpoint, timeouts: ChatCompletionsTimeouts(timeout))
    }

    /// Creates a configuration.
    public init(
      endpoint: EndpointConfiguration, timeouts: ChatCompletionsTimeouts, urlSession: URLSession? = nil
    ) {
      self.endpoint = endpoint
      self.timeouts = timeouts
      self.urlSession = urlSession
    }
  }

  /// The model type.
  public typealias Model = ChatCompletionsLanguageModel

  /// The client every generation of this executor uses (one transport).
  public let client: ChatCompletionsClient

  /// Creates the executor and its client: over `URLSession` with the
  /// configuration of ``Configuration/urlSession`` when one is given, else
  /// with the platform's default transport.
  public init(configuration: Configuration) {
    if let urlSession = configuration.urlSession {
      client = ChatCompletionsClient(
        endpoint: configuration.endpoint, timeouts: configuration.timeouts,
        transport: URLSessionTransport(configuration: urlSession.configuration))
    } else {
      client = ChatCompletionsClient(endpoint: configuration.endpoint, timeouts: configuration.timeouts)
    }
  }

  /// Creates the executor over a given client (and so a given transport).
  package init(client: ChatCompletionsClient) {
    self.client = client
  }

  /// Streams one generation into the channel.
  ///
  /// A stream that the server ends without any event after a 2xx head
  /// (llama-cpp-python's answer to a prompt at or past its window) is asked
  /// about once more, not streamed and for one token; when that answer is a
  /// context-length refusal, it is the error thrown, with the window and the
  /// prompt's size, instead of a truncated stream.
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
    var receivedChunk = false
    do {
      for try await chunk in try await client.streamChunks(requestBody: body) {
        try Task.checkCancellation()
        receivedChunk = true
        for event in try translator.translate(chunk) {
          await channel.send(event)
        }
      }
      try Task.checkCancellation()
      try translator.finish()
    } catch {
      if Task.isCancelled { throw CancellationError() }
      var thrown = ErrorBoundary.publicError(for: error, mapper: client.mapper)
      // llama-cpp-python refuses an over-long streamed prompt with a 2xx and no event: ask it why.
      if !receivedChunk, (thrown as? ChatCompletionsError)?.kind == .truncatedStream,
        let probeBody = try? model.requestBuilder.refusalProbeBody(for: request),
        let refusal = await client.contextSizeRefusal(probeBody: probeBody)
      {
        thrown = refusal
      }
      if Task.isCancelled { throw CancellationError() }
      model.learnContextSize(from: thrown)
      throw thrown
    }
  }
}
