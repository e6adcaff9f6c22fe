import Foundation

/// The head of an HTTP response whose body is still arriving: the status and
/// headers come first, the body follows as a stream of byte chunks in the
/// sizes the network delivered them.
public struct StreamingHTTPResponse: Sendable {
  /// The HTTP status code.
  public let status: Int

  /// The response headers (names are case-insensitive).
  public let headers: HTTPHeaderFields

  /// The body, chunk by chunk, ending when the response is complete and
  /// throwing the transport's error if it fails part way. Stopping the
  /// iteration (or cancelling the task that iterates) cancels the request and
  /// closes its connection.
  public let body: AsyncThrowingStream<Data, any Error>

  /// Creates a response head.
  public init(status: Int, headers: HTTPHeaderFields, body: AsyncThrowingStream<Data, any Error>) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// Whether the status is in the 2xx range.
  public var isSuccess: Bool {
    (200..<300).contains(status)
  }

  /// Reads the rest of the body into one value, up to `limit` bytes (the rest is dropped).
  public func collectBody(limit: Int = 1 << 20) async throws -> Data {
    var collected = Data()
    for try await chunk in body where collected.count < limit {
      collected.append(chunk.prefix(limit - collected.count))
    }
    return collected
  }
}
