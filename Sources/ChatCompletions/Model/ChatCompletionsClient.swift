import Foundation

/// Posts chat completion requests to one endpoint and streams the chunks back.
///
/// It owns one transport for all its requests: libcurl on Linux (waiting
/// for an answer costs no CPU), URLSession on Apple platforms. It follows
/// redirects under the endpoint's `EndpointConfiguration.redirectPolicy`.
/// A non-2xx answer is read (up to a limit) and thrown as the mapped error:
/// 429 as a rate limit with the `Retry-After` date, context-length messages
/// as a context size error, timeouts as a timeout, content filters as a
/// guardrail violation, anything else as a ``ChatCompletionsError`` with the
/// server's message, type and code.
///
/// ```swift
/// let client = ChatCompletionsClient(endpoint: endpoint, timeout: 60)
/// for try await chunk in try await client.streamChunks(requestBody: body) {
///   print(chunk.choices.first?.delta.content ?? "", terminator: "")
/// }
/// ```
public final class ChatCompletionsClient: Sendable {
  /// The endpoint this client talks to.
  public let endpoint: EndpointConfiguration

  /// How long a request may wait to connect, for the first byte, and between reads.
  public let timeouts: ChatCompletionsTimeouts

  /// The transport every request of this client goes through.
  package var transport: any HTTPTransport { http.transport }

  /// Sends the requests and follows the redirects; knows nothing of the wire format.
  let http: HTTPStreamingClient

  let mapper: ErrorMapper

  /// Creates a client with the platform's default transport; `timeout` is
  /// the first-byte and idle timeout (see `ChatCompletionsTimeouts.init(_:)`).
  public convenience init(endpoint: EndpointConfiguration, timeout: TimeInterval = 60) {
    self.init(endpoint: endpoint, timeouts: ChatCompletionsTimeouts(timeout))
  }

  /// Creates a client with the platform's default transport.
  public convenience init(endpoint: EndpointConfiguration, timeouts: ChatCompletionsTimeouts) {
    self.init(endpoint: endpoint, timeouts: timeouts, transport: DefaultHTTPTransport.make())
  }

  /// Creates a client over a given transport (tests feed bytes through an in-memory one).
  package init(
    endpoint: EndpointConfiguration, timeouts: ChatCompletionsTimeouts, transport: any HTTPTransport
  ) {
    self.endpoint = endpoint
    self.timeouts = timeouts
    self.http = HTTPStreamingClient(endpoint: endpoint, transport: transport)
    self.mapper = ErrorMapper(redaction: endpoint.redaction)
  }

  /// The first-byte timeout, in seconds.
  public var timeout: TimeInterval {
    timeouts.firstByte
  }

  /// Posts a request body (the JSON of a streamed chat completion request) and
  /// returns the stream of chunks once the server has answered with a 2xx head.
  ///
  /// - Throws: `LanguageModelError` where one fits (rate limit, context size,
  ///   timeout, content filter), else ``ChatCompletionsError``;
  ///   `CancellationError` when cancelled. The stream throws the same.
  public func streamChunks(requestBody: Data) async throws -> ChatCompletionChunkStream {
    let request = endpoint.request(url: endpoint.chatCompletionsURL, body: requestBody, timeouts: timeouts)
    let start = ContinuousClock.now
    do {
      let response = try await send(request)
      try await EventStreamContentCheck.check(
        response, url: endpoint.chatCompletionsURL, mapper: mapper, limits: endpoint.responseLimits)
      return ChatCompletionChunkStream(
        body: response.body, decoder: ChunkDecoder(mapper: mapper), limits: endpoint.responseLimits,
        start: start)
    } catch {
      throw ErrorBoundary.publicError(for: error, mapper: mapper)
    }
  }

  /// Sends a request through ``HTTPStreamingClient`` (redirects under the
  /// endpoint's policy) and returns the response head when its status is
  /// 2xx; otherwise throws the mapped ``ChatCompletionsFailure`` (or
  /// `CancellationError`).
  package func send(_ request: HTTPRequest) async throws -> StreamingHTTPResponse {
    do {
      return try await http.send(request)
    } catch let answer as HTTPErrorResponse {
      throw mapper.failure(status: answer.status, headers: answer.headers, body: answer.body)
    } catch {
      throw mapper.failure(transportError: error)
    }
  }
}
