/// A line or an event of an event stream went past the bound of its
/// ``ServerSentEventParser``; the parser kept none of the bytes past it.
public struct ServerSentEventLimitError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Which bound was exceeded.
  public enum Bound: String, Sendable, Hashable {
    /// One line, without a line end within the bound.
    case line
    /// One event: its `data:` lines, without a blank line to end the event within the bound.
    case event
  }

  /// Which bound was exceeded.
  public var bound: Bound

  /// The bound, in bytes.
  public var limit: Int

  /// Creates an error.
  public init(bound: Bound, limit: Int) {
    self.bound = bound
    self.limit = limit
  }

  /// What happened, such as "an event stream line longer than 16 MiB (no line end)".
  public var description: String {
    switch bound {
    case .line:
      "an event stream line longer than \(ResponseLimits.describe(bytes: limit)) (no line end within it)"
    case .event:
      "an event stream event larger than \(ResponseLimits.describe(bytes: limit)) (data: lines with no blank "
        + "line to end the event)"
    }
  }
}
