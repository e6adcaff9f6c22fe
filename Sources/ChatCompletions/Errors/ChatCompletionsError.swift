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
    /// The response went past one of the endpoint's ``ResponseLimits`` (a line,
    /// an event or the whole stream too large); the request was stopped.
    case limitExceeded
    /// The server answered 2xx with a body that is not an event stream (such
    /// as an HTML page from a proxy or a login portal).
    case unexpectedContentType
    /// The connection failed or was reset.
    case connectionFailed
    /// The request or the server's answer was not usable HTTP.
    case invalidResponse
    /// The request did not complete within the configured timeout.
    case timedOut
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

  /// Creates an error.
  public init(kind: Kind, status: Int? = nil, message: String, type: String? = nil, code: String? = nil) {
    self.kind = kind
    self.status = status
    self.message = message
    self.type = type
    self.code = code
  }

  /// A one-line summary: kind, status, type, code and message.
  public var description: String {
    var parts = ["chat completions \(kind.rawValue)"]
    if let status { parts.append("HTTP \(status)") }
    if let type { parts.append("type \(type)") }
    if let code { parts.append("code \(code)") }
    return parts.joined(separator: ", ") + ": " + message
  }
}
