import Foundation

/// One HTTP request as a transport sends it: method, URL, headers, body and
/// the timeouts that bound it.
///
/// Transports never follow redirects; ``ChatCompletionsClient`` does, under
/// the endpoint's ``RedirectPolicy``.
package struct HTTPRequest: Sendable, Hashable {
  /// The request method, such as `POST`.
  package var method: String
  /// The absolute `http` or `https` URL.
  package var url: URL
  /// The header fields, sent in order.
  package var headers: HTTPHeaderFields
  /// The body, if any.
  package var body: Data?
  /// The connect, first-byte and idle timeouts.
  package var timeouts: ChatCompletionsTimeouts

  /// Creates a request.
  package init(
    method: String = "POST", url: URL, headers: HTTPHeaderFields = HTTPHeaderFields(), body: Data? = nil,
    timeouts: ChatCompletionsTimeouts = ChatCompletionsTimeouts()
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeouts = timeouts
  }
}
