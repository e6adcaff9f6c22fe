import Foundation

/// One HTTP request as a transport sends it: method, URL, headers, body and
/// the timeouts that bound it.
///
/// Transports never follow redirects; ``HTTPStreamingClient`` does, under
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
  package var timeouts: HTTPTimeouts

  /// Creates a request.
  package init(
    method: String = "POST", url: URL, headers: HTTPHeaderFields = HTTPHeaderFields(), body: Data? = nil,
    timeouts: HTTPTimeouts = HTTPTimeouts()
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeouts = timeouts
  }
}

extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// `POST http://host/v1/chat/completions (512 bytes)`, with the URL's user
  /// info and secret query values replaced; the headers hide credentials too.
  package var description: String {
    "\(method) \(Redaction(secrets: []).describe(url))" + (body.map { " (\($0.count) bytes)" } ?? "")
  }

  /// The same as ``description``.
  package var debugDescription: String { description }

  /// The method, the URL without secrets, the headers without credential
  /// values, and the body's size: `dump` shows no secret.
  package var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "method": method, "url": Redaction(secrets: []).describe(url), "headers": headers.description,
        "body": body.map { "\($0.count) bytes" } ?? "none", "timeouts": timeouts,
      ], displayStyle: .struct)
  }
}
