import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Posts chat completion requests to one endpoint and streams the chunks back.
///
/// It owns one ``StreamingHTTPClient`` (one URLSession) for all its requests.
/// A non-2xx answer is read in full and thrown as the mapped failure: 429 as
/// a rate limit with the `Retry-After` date, context-length messages as a
/// context size error, timeouts as a timeout, content filters as a guardrail
/// violation, anything else with the server's message, type and code.
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

  /// Seconds without any bytes from the server after which a request fails.
  public let timeout: TimeInterval

  /// The HTTP client, shared with other calls to the same endpoint (such as tokenizing).
  public let http: StreamingHTTPClient

  let mapper: ErrorMapper

  /// Creates a client with its own URLSession.
  public init(endpoint: EndpointConfiguration, timeout: TimeInterval = 60) {
    self.endpoint = endpoint
    self.timeout = timeout
    self.http = StreamingHTTPClient(idleTimeout: timeout)
    self.mapper = ErrorMapper(redaction: endpoint.redaction)
  }

  /// Posts a request body (the JSON of a streamed chat completion request) and
  /// returns the stream of chunks once the server has answered with a 2xx head.
  public func streamChunks(requestBody: Data) async throws -> ChatCompletionChunkStream {
    let request = endpoint.request(url: endpoint.chatCompletionsURL, body: requestBody, timeout: timeout)
    let response = try await send(request)
    return ChatCompletionChunkStream(body: response.body, decoder: ChunkDecoder(mapper: mapper))
  }

  /// Sends a request and returns the response head when its status is 2xx;
  /// otherwise reads the body and throws the mapped failure.
  func send(_ request: URLRequest) async throws -> StreamingHTTPResponse {
    let response: StreamingHTTPResponse
    do {
      response = try await http.send(request)
    } catch {
      throw mapper.failure(transportError: error)
    }
    guard response.isSuccess else {
      let body: Data
      do {
        body = try await response.collectBody()
      } catch {
        throw mapper.failure(transportError: error)
      }
      throw mapper.failure(status: response.status, headers: response.headers, body: body)
    }
    return response
  }
}
