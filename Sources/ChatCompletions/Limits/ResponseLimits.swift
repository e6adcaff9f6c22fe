import Foundation

/// How much of a server's answer the client reads before it stops: every
/// byte stream from the server has a bound in memory and, where bytes can
/// trickle forever, in time.
///
/// The defaults are ample for any real model output (a 16 MiB event is a
/// few million tokens) and small enough that a hostile or broken server
/// cannot exhaust memory:
///
/// ```swift
/// var endpoint = EndpointConfiguration(baseURL: url)
/// endpoint.responseLimits.maximumEventBytes = 4 << 20    // 4 MiB per event
/// endpoint.responseLimits.maximumStreamBytes = 256 << 20 // and 256 MiB in all
/// ```
///
/// A stream that exceeds a bound fails with a ``ChatCompletionsError`` of kind
/// ``ChatCompletionsError/Kind/limitExceeded`` and its connection is closed;
/// the session's turn fails as a whole, so its transcript is unchanged. An
/// error body that exceeds its bound is not an error of its own: the client
/// stops reading, closes the connection and reports the status with the
/// start of the body.
public struct ResponseLimits: Sendable, Hashable {
  /// The longest line of an event stream, in bytes (default 16 MiB). A server
  /// that sends `data: ` and then bytes without a line end fails here.
  public var maximumLineBytes: Int

  /// The largest event of an event stream, in bytes: the sum of its `data:`
  /// lines (default 16 MiB). `data:` lines without a blank line between them
  /// belong to one event, so an endless run of them fails here.
  public var maximumEventBytes: Int

  /// The most bytes one streamed answer may have in all, or `nil` for no
  /// bound (the default: a long generation is legitimate, and each of its
  /// events is bounded already).
  public var maximumStreamBytes: Int?

  /// The most bytes read of a non-2xx answer's body (default 1 MiB); the
  /// client stops reading there and closes the connection.
  public var maximumErrorBodyBytes: Int

  /// The longest time spent reading a non-2xx answer's body, in seconds
  /// (default 10): a server that trickles an error body forever keeps
  /// resetting the idle timeout, so this bound is on the whole read.
  public var errorBodyTimeLimit: TimeInterval

  /// The defaults: 16 MiB per line and per event, no bound on the whole
  /// stream, 1 MiB and 10 seconds for an error body. Values below 1 count as 1
  /// (bytes) and as 0.001 (seconds).
  public init(
    maximumLineBytes: Int = 16 << 20, maximumEventBytes: Int = 16 << 20, maximumStreamBytes: Int? = nil,
    maximumErrorBodyBytes: Int = 1 << 20, errorBodyTimeLimit: TimeInterval = 10
  ) {
    self.maximumLineBytes = max(1, maximumLineBytes)
    self.maximumEventBytes = max(1, maximumEventBytes)
    self.maximumStreamBytes = maximumStreamBytes.map { max(1, $0) }
    self.maximumErrorBodyBytes = max(1, maximumErrorBodyBytes)
    self.errorBodyTimeLimit = errorBodyTimeLimit.isFinite ? max(0.001, errorBodyTimeLimit) : 10
  }

  /// A byte count as text for messages: `16 MiB`, `1 KiB`, or `1234 bytes`.
  static func describe(bytes: Int) -> String {
    if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }
}
