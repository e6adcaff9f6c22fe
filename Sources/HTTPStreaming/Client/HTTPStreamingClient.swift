import Foundation

/// Sends requests to one endpoint through one transport, follows redirects
/// under the endpoint's ``RedirectPolicy``, and hands back the head of a 2xx
/// answer with its body still streaming.
///
/// It knows nothing of a wire format: a provider module (such as
/// `ChatCompletions`) builds the request body, decodes the stream, and maps
/// the failures this client throws into its own errors:
///
/// - ``HTTPErrorResponse`` for a non-2xx answer, with the start of its body
///   read under ``ResponseLimits/maximumErrorBodyBytes`` and
///   ``ResponseLimits/errorBodyTimeLimit``;
/// - ``TransportFailure`` for what went wrong below HTTP, redirect refusals included;
/// - `CancellationError` when the calling task is cancelled.
package struct HTTPStreamingClient: Sendable {
  /// The endpoint every request goes to (its redirect policy and limits apply).
  package let endpoint: EndpointConfiguration

  /// The transport every request goes through.
  package let transport: any HTTPTransport

  /// Creates a client over a transport.
  package init(endpoint: EndpointConfiguration, transport: any HTTPTransport) {
    self.endpoint = endpoint
    self.transport = transport
  }

  /// Sends a request, following redirects under the endpoint's policy, and
  /// returns the response head when its status is 2xx.
  package func send(_ request: HTTPRequest) async throws -> StreamingHTTPResponse {
    var redirects = RedirectChain(policy: endpoint.redirectPolicy, request: request)
    var current = request
    while true {
      // The URL sent is the URL checked, redacted and printed: one reading, or none at all.
      if let reason = EndpointURLSpelling.problem(with: current.url) {
        throw TransportFailure.ambiguousURL(reason: reason)
      }
      let response = try await transport.send(current)
      if RedirectChain.statuses.contains(response.status), let location = response.headers["location"] {
        // Dropping the redirect's response closes its body.
        current = try redirects.follow(current, status: response.status, location: location)
        continue
      }
      guard response.isSuccess else {
        let limits = endpoint.responseLimits
        let body = await BoundedBodyReader.read(
          response.body, maximumBytes: limits.maximumErrorBodyBytes, timeLimit: limits.errorBodyTimeLimit)
        try Task.checkCancellation()
        throw HTTPErrorResponse(status: response.status, headers: response.headers, body: body)
      }
      return response
    }
  }
}
