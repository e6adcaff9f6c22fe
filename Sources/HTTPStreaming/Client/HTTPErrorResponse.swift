/// A non-2xx answer: its status, its headers, and the start of its body,
/// read under the endpoint's error-body bounds.
///
/// ``HTTPStreamingClient`` throws it; a provider maps it into its own error
/// (reading the provider's error envelope from ``body``).
package struct HTTPErrorResponse: Error, Sendable, Hashable {
  /// The HTTP status code.
  package var status: Int

  /// The response's header fields.
  package var headers: HTTPHeaderFields

  /// The start of the body (or all of it), and why reading stopped early if it did.
  package var body: ErrorBody

  /// Creates an error response.
  package init(status: Int, headers: HTTPHeaderFields, body: ErrorBody) {
    self.status = status
    self.headers = headers
    self.body = body
  }
}
