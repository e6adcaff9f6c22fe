/// A line or an event of an event stream went past the bound of its
/// ``ServerSentEventParser``; the parser kept none of the bytes past it.
package struct ServerSentEventLimitError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Which bound was exceeded.
  package enum Bound: String, Sendable, Hashable {
    /// One line, without a line end within the bound.
    case line
    /// One event: its `data:` lines, without a blank line to end the event within the bound.
    case event
  }

  /// Which bound was exceeded.
  package var bound: Bound

  /// The bound, in bytes.
  package var limit: Int

  /// Creates an error.
  package init(bound: Bound, limit: Int) {
    self.bound = bound
    self.limit = limit
  }

  /// What happened, such as "an event stream line longer than 16 MiB (no line end)".
  package var description: String {
    switch bound {
    case .line:
      "an event stream line longer than \(ResponseLimits.describe(bytes: limit)) (no line end within it)"
    case .event:
      "an event stream event larger than \(ResponseLimits.describe(bytes: limit)) (data: lines with no blank "
        + "line to end the event)"
    }
  }
}
