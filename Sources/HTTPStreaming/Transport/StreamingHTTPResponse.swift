import Foundation

/// The head of an HTTP response whose body is still arriving: the status and
/// headers come first, the body follows as a stream of byte pieces in the
/// sizes the network delivered them.
package struct StreamingHTTPResponse: Sendable {
  /// The HTTP status code.
  package let status: Int

  /// The response headers (names are case-insensitive).
  package let headers: HTTPHeaderFields

  /// The body, piece by piece, ending when the response is complete and
  /// throwing the transport's error if it fails part way. Stopping the
  /// iteration (or cancelling the task that iterates) cancels the request and
  /// closes its connection.
  package let body: HTTPBody

  /// Creates a response head.
  package init(status: Int, headers: HTTPHeaderFields, body: HTTPBody) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// Whether the status is in the 2xx range.
  package var isSuccess: Bool {
    (200..<300).contains(status)
  }
}
