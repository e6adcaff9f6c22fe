import Foundation

/// How long a request may wait at each stage before it fails with a timeout.
///
/// - ``connect``: to open the connection (TCP and TLS).
/// - ``firstByte``: from sending the request until the first byte of the
///   answer (a model server is silent while it processes the prompt, so this
///   is the long one).
/// - ``idle``: between two reads once the answer has started. Time the
///   consumer spends not reading (a paused transfer) does not count.
///
/// Each expiry is thrown as `LanguageModelError.timeout` whose metadata
/// `"timeout"` names the stage (`connect`, `firstByte`, `idle`).
///
/// ```swift
/// let timeouts = HTTPTimeouts(connect: 5, firstByte: 300, idle: 30)
/// ```
public struct HTTPTimeouts: Sendable, Hashable {
  /// One of the timeouts.
  public enum Stage: String, Sendable, Hashable, CaseIterable {
    /// Opening the connection.
    case connect
    /// Waiting for the answer's first byte.
    case firstByte
    /// Waiting between two reads of the answer.
    case idle
  }

  /// Seconds to open the connection.
  public var connect: TimeInterval
  /// Seconds from sending the request until the answer's first byte.
  public var firstByte: TimeInterval
  /// Seconds between two reads once the answer has started.
  public var idle: TimeInterval

  /// Creates timeouts; the defaults are 15 s to connect and 60 s for the rest.
  public init(connect: TimeInterval = 15, firstByte: TimeInterval = 60, idle: TimeInterval = 60) {
    self.connect = connect
    self.firstByte = firstByte
    self.idle = idle
  }

  /// The timeouts that one number gives: `seconds` for the first byte and
  /// between reads, and at most 15 s (or `seconds`, if shorter) to connect.
  public init(_ seconds: TimeInterval) {
    self.init(connect: min(seconds, 15), firstByte: seconds, idle: seconds)
  }
}
