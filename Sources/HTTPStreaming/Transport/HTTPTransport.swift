/// Sends HTTP requests and streams their answers: the seam between the chat
/// completions client and the network.
///
/// A transport returns once the response head has arrived (``CurlTransport``
/// holds the head of an answer on a reused connection until its first body
/// byte, to send the request again if the connection turns out closed); the
/// body follows through ``StreamingHTTPResponse/body``. It never follows
/// redirects (the client does, under the endpoint's ``RedirectPolicy``).
/// It throws ``TransportFailure`` for what went wrong on the way, and
/// `CancellationError` when the calling task is cancelled. Cancelling the
/// task that waits for the head or reads the body, or dropping the body
/// unread, stops the request and closes its connection.
///
/// The platform's default is ``CurlTransport`` on Linux (libcurl; waiting
/// costs no CPU) and ``URLSessionTransport`` on Apple platforms. Tests use
/// an in-memory transport to feed any head and any bytes.
package protocol HTTPTransport: Sendable {
  /// Sends a request and returns its head once it has arrived.
  func send(_ request: HTTPRequest) async throws -> StreamingHTTPResponse

  /// The number of requests sent through this transport whose body has not ended yet.
  var inFlightRequestCount: Int { get }
}

/// The transport that the public initializers pick: libcurl on Linux,
/// URLSession on Apple platforms.
package enum DefaultHTTPTransport {
  /// A transport for one client.
  package static func make() -> any HTTPTransport {
    #if canImport(CCurl)
    CurlTransport()
    #else
    URLSessionTransport()
    #endif
  }
}
