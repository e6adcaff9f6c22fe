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
/// endpoint.responseLimits.maximumStreamBytes = 64 << 20  // and 64 MiB in all
/// ```
///
/// A stream that exceeds a bound fails (in `ChatCompletions`, with a
/// `ChatCompletionsError` of kind `limitExceeded`) and its connection is closed;
/// the session's turn fails as a whole, so its transcript is unchanged. An
/// error body that exceeds its bound is not an error of its own: the client
/// stops reading, closes the connection and reports the status with the
/// start of the body.
public struct ResponseLimits: Sendable, Hashable {
  /// The longest line of an event stream, in bytes (default 16 MiB). A server
  /// that sends `data: ` and then bytes without a line end fails here.
  public var maximumLineBytes: Int

  /// The largest event of an event stream, in bytes: its `data:` values and
  /// the line feeds that join them (default 16 MiB). `data:` lines without a
  /// blank line between them belong to one event, so an endless run of them
  /// fails here.
  public var maximumEventBytes: Int

  /// The most bytes one streamed answer may have in all (default 256 MiB),
  /// or `nil` for no bound.
  ///
  /// Each event is bounded already, but a session keeps what the events
  /// carry (the answer's text, reasoning and tool arguments), so without a
  /// total a server that streams content forever grows the client's memory
  /// without bound. 256 MiB of event stream is over a million tokens (about
  /// 200 bytes of stream per token), more than any model answers at once.
  public var maximumStreamBytes: Int?

  /// The longest time one streamed answer may take in all, in seconds, from
  /// sending the request (default 3,600: an hour), or `nil` for no bound.
  ///
  /// The idle timeout ends a stream that stops; this bound ends one that never
  /// stops, such as a server that sends a keep-alive comment or one byte at a
  /// time just under the idle timeout, forever. It is checked as bytes arrive,
  /// so a stream ends at most one idle timeout after it. (OpenAI's Python
  /// library bounds a whole request by ten minutes by default; an hour leaves
  /// room for long generations on slow hardware.)
  public var maximumStreamDuration: TimeInterval?

  /// The most bytes read of a non-2xx answer's body (default 1 MiB); the
  /// client stops reading there and closes the connection.
  public var maximumErrorBodyBytes: Int

  /// The longest time spent reading a non-2xx answer's body, in seconds
  /// (default 10): a server that trickles an error body forever keeps
  /// resetting the idle timeout, so this bound is on the whole read.
  public var errorBodyTimeLimit: TimeInterval

  /// The defaults: 16 MiB per line and per event, 256 MiB and an hour for
  /// the whole stream, 1 MiB and 10 seconds for an
  /// error body. Values below 1 count as 1 (bytes) and as 0.001 (seconds); a
  /// stream duration that is not finite counts as `nil` (no bound), and an
  /// error-body time limit that is not finite as the default, 10 seconds.
  public init(
    maximumLineBytes: Int = 16 << 20, maximumEventBytes: Int = 16 << 20, maximumStreamBytes: Int? = 256 << 20,
    maximumStreamDuration: TimeInterval? = 3_600, maximumErrorBodyBytes: Int = 1 << 20,
    errorBodyTimeLimit: TimeInterval = 10
  ) {
    self.maximumLineBytes = max(1, maximumLineBytes)
    self.maximumEventBytes = max(1, maximumEventBytes)
    self.maximumStreamBytes = maximumStreamBytes.map { max(1, $0) }
    self.maximumStreamDuration = maximumStreamDuration.flatMap { $0.isFinite ? max(0.001, $0) : nil }
    self.maximumErrorBodyBytes = max(1, maximumErrorBodyBytes)
    self.errorBodyTimeLimit = errorBodyTimeLimit.isFinite ? max(0.001, errorBodyTimeLimit) : 10
  }

  /// A duration as text for messages: `3600 s`, `0.5 s`, `1234.5 s`, and at
  /// most three decimals (`0.333 s`); a duration under a millisecond keeps its
  /// digits (`0.0001 s`).
  package static func describe(seconds: TimeInterval) -> String {
    if seconds == seconds.rounded(), abs(seconds) < 1e15 { return "\(Int(seconds)) s" }
    var text = String(format: "%.3f", seconds)
    guard text.contains(".") else { return "\(seconds) s" }
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text == "0" || text == "-0" ? "\(seconds) s" : "\(text) s"
  }

  /// A byte count as text for messages: `16 MiB`, `1 KiB`, or `1234 bytes`.
  package static func describe(bytes: Int) -> String {
    if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }
}
