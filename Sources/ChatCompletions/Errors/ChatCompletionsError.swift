/// A failure of an OpenAI-compatible chat completions endpoint, with what the
/// server said about it.
///
/// Failures that the session API has a case for (rate limits, context size,
/// timeouts, content filters) are reported as those cases; this error carries
/// the rest, and the details of every one.
public struct ChatCompletionsError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Where the failure was seen.
  public enum Kind: String, Sendable, Hashable {
    /// The server answered with a non-2xx HTTP status.
    case httpStatus
    /// The stream carried an `{"error": …}` object instead of a chunk.
    case errorEvent
    /// A chunk was not the JSON the protocol describes.
    case malformedChunk
    /// The chunks were valid JSON but did not form a valid response, such as
    /// tool-call arguments whose call never got a name.
    case malformedResponse
    /// The stream ended before it was complete (no `[DONE]`, or mid-event).
    case truncatedStream
    /// The response went past one of the endpoint's `ResponseLimits` (a line,
    /// an event or the whole stream too large); the request was stopped.
    case limitExceeded
    /// The server answered 2xx with a body that is not an event stream (such
    /// as an HTML page from a proxy or a login portal).
    case unexpectedContentType
    /// The connection failed or was reset.
    case connectionFailed
    /// The request or the server's answer was not usable HTTP.
    case invalidResponse
    /// The request did not complete within the configured timeout
    /// (``ChatCompletionsError/timeoutStage`` says which one).
    case timedOut
    /// The TLS handshake failed, such as a certificate that does not verify
    /// against the system's certificate authorities.
    case tlsFailed
    /// The server redirected to another origin (which the redirect policy
    /// refuses) or to a URL that is not `http` or `https`; the message names the target.
    case redirectRefused
    /// The server redirected more times than the policy allows, or in a loop.
    case tooManyRedirects
  }

  /// Where the failure was seen.
  public var kind: Kind

  /// The HTTP status, when the server sent one.
  public var status: Int?

  /// The server's message, or a description of the failure.
  public var message: String

  /// The server's error `type`, when it sent one.
  public var type: String?

  /// The server's error `code` (a number is given as its decimal text).
  public var code: String?

  /// Which timeout expired, for a ``Kind/timedOut`` error raised by the client.
  public var timeoutStage: ChatCompletionsTimeouts.Stage?

  /// Creates an error.
  public init(
    kind: Kind, status: Int? = nil, message: String, type: String? = nil, code: String? = nil,
    timeoutStage: ChatCompletionsTimeouts.Stage? = nil
  ) {
    self.kind = kind
    self.status = status
    self.message = message
    self.type = type
    self.code = code
    self.timeoutStage = timeoutStage
  }

  /// A one-line summary: kind, status, type, code and message.
  public var description: String {
    var parts = ["chat completions \(kind.rawValue)"]
    if let status { parts.append("HTTP \(status)") }
    if let type { parts.append("type \(type)") }
    if let code { parts.append("code \(code)") }
    if let timeoutStage { parts.append("\(timeoutStage.rawValue) timeout") }
    return parts.joined(separator: ", ") + ": " + message
  }
}
