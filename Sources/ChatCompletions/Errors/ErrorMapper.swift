import Foundation
import ModelSession

/// Turns HTTP statuses, error bodies, error events and transport errors into
/// ``ChatCompletionsFailure`` values.
///
/// Every text that comes from the server passes through ``Redaction`` first,
/// so that a server echoing the API key back cannot leak it into an error.
struct ErrorMapper: Sendable {
  /// Removes secrets from server text.
  var redaction: Redaction

  /// The current time, for `Retry-After` values given in seconds.
  var now: @Sendable () -> Date = { Date() }

  init(redaction: Redaction = Redaction(secrets: [])) {
    self.redaction = redaction
  }

  /// The longest server text kept in a message, in characters (after redaction).
  static let messageLimit = 2_000

  /// The longest server `type` or `code` kept, in characters (after redaction).
  static let fieldLimit = 200

  /// Maps a non-2xx HTTP response with its body (or the start of it, when
  /// ``ErrorBodyReader`` stopped reading).
  func failure(status: Int, headers: HTTPHeaderFields, body: ErrorBody) -> ChatCompletionsFailure {
    let envelope = body.isComplete ? ErrorEnvelope.decode(from: body.data) : nil
    let bodyText = String(decoding: body.data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    var message =
      if let envelope {
        serverText(envelope.message)
      } else if bodyText.isEmpty {
        HTTPStatusText.text(for: status)
      } else {
        serverText(bodyText, wasCut: !body.isComplete)
      }
    if let note = body.stopNote {
      message += " (\(redaction.apply(to: note)))"
    }
    let error = ChatCompletionsError(
      kind: .httpStatus, status: status, message: message, type: envelope?.type.map(serverField),
      code: envelope?.code.map(serverField))
    if status == 429 {
      return .rateLimited(resetDate: RetryAfter.date(from: headers, now: now()), error)
    }
    if status == 408 || status == 504 {
      return .timeout(error)
    }
    return classify(error, envelope: envelope)
  }

  /// Maps a non-2xx HTTP response whose whole body is `body`.
  func failure(status: Int, headers: HTTPHeaderFields, body: Data) -> ChatCompletionsFailure {
    failure(status: status, headers: headers, body: ErrorBody(data: body))
  }

  /// Maps an `{"error": …}` object that arrived as an event of the stream.
  func failure(streamEnvelope envelope: ErrorEnvelope) -> ChatCompletionsFailure {
    let error = ChatCompletionsError(
      kind: .errorEvent, status: envelope.status, message: serverText(envelope.message),
      type: envelope.type.map(serverField), code: envelope.code.map(serverField))
    if envelope.status == 429 || envelope.code == "rate_limit_exceeded" {
      return .rateLimited(resetDate: nil, error)
    }
    return classify(error, envelope: envelope)
  }

  /// Server text for a message: redacted, then cut to ``messageLimit``.
  func serverText(_ text: String, wasCut: Bool = false) -> String {
    redaction.excerpt(of: text, limit: Self.messageLimit, inputWasCut: wasCut)
  }

  /// A server `type` or `code`: redacted, then cut to ``fieldLimit``.
  func serverField(_ text: String) -> String {
    redaction.excerpt(of: text, limit: Self.fieldLimit)
  }

  /// Maps an error thrown by a transport (a ``TransportFailure``) or by the
  /// client's redirect policy.
  ///
  /// Cancellation is not a failure: it is returned as `CancellationError`;
  /// a ``ChatCompletionsFailure`` is returned as it is.
  func failure(transportError: any Error) -> any Error {
    if transportError is CancellationError || transportError is ChatCompletionsFailure {
      return transportError
    }
    guard let transport = transportError as? TransportFailure else {
      return ChatCompletionsFailure.other(
        ChatCompletionsError(kind: .connectionFailed, message: serverText("\(transportError)")))
    }
    let message = serverText(transport.description)
    switch transport {
    case .connectTimeout:
      return ChatCompletionsFailure.timeout(
        ChatCompletionsError(kind: .timedOut, message: message, timeoutStage: .connect))
    case .firstByteTimeout:
      return ChatCompletionsFailure.timeout(
        ChatCompletionsError(kind: .timedOut, message: message, timeoutStage: .firstByte))
    case .idleTimeout:
      return ChatCompletionsFailure.timeout(
        ChatCompletionsError(kind: .timedOut, message: message, timeoutStage: .idle))
    case .connectionFailed, .ambiguousURL:
      return ChatCompletionsFailure.other(ChatCompletionsError(kind: .connectionFailed, message: message))
    case .tlsFailed:
      return ChatCompletionsFailure.other(ChatCompletionsError(kind: .tlsFailed, message: message))
    case .invalidResponse:
      return ChatCompletionsFailure.other(ChatCompletionsError(kind: .invalidResponse, message: message))
    case .crossOriginRedirect, .unsupportedRedirect:
      return ChatCompletionsFailure.other(ChatCompletionsError(kind: .redirectRefused, message: message))
    case .tooManyRedirects:
      return ChatCompletionsFailure.other(ChatCompletionsError(kind: .tooManyRedirects, message: message))
    }
  }

  private func classify(_ error: ChatCompletionsError, envelope: ErrorEnvelope?) -> ChatCompletionsFailure {
    let haystack = [error.message, error.type ?? "", error.code ?? ""].joined(separator: " ").lowercased()
    if Self.contextSizeMarkers.contains(where: haystack.contains) {
      let numbers = ContextSizeNumbers(message: error.message)
      return .contextSizeExceeded(
        contextSize: envelope?.contextSize ?? numbers.contextSize,
        tokenCount: envelope?.tokenCount ?? numbers.tokenCount, error)
    }
    if Self.contentFilterMarkers.contains(where: haystack.contains) {
      return .guardrailViolation(error)
    }
    if Self.timeoutMarkers.contains(where: haystack.contains) {
      return .timeout(error)
    }
    return .other(error)
  }

  private static let contextSizeMarkers = [
    "context_length_exceeded", "exceed_context_size", "context length", "context window", "context size",
    "maximum context", "prompt is too long", "too many tokens",
  ]

  private static let contentFilterMarkers = [
    "content_filter", "content filter", "content_policy", "content policy", "content management policy",
    "safety system", "responsibleaipolicyviolation", "guardrail",
  ]

  private static let timeoutMarkers = ["timed out", "timeout"]
}

/// The context size and token count that servers write into context-length
/// messages, such as OpenAI's "maximum context length is 8192 tokens. However,
/// your messages resulted in 9000 tokens", llama-cpp-python's "maximum context
/// length is 2048 tokens. However, you requested 2148 tokens (2048 in the
/// messages, 100 in the completion)" (the prompt is the part in the messages),
/// or llama.cpp's Python binding's "Requested tokens (5000) exceed context
/// window of 4096".
struct ContextSizeNumbers: Sendable, Hashable {
  var contextSize: Int?
  var tokenCount: Int?

  init(message: String) {
    let lowered = message.lowercased()
    contextSize =
      Self.number(after: "maximum context length is ", in: lowered)
      ?? Self.number(after: "context window of ", in: lowered)
    // llama-cpp-python's "you requested 2148 tokens (2048 in the messages, 100 in the completion)" and
    // OpenAI's older "(3162 in your prompt; 1000 for the completion)": the prompt is the first part.
    tokenCount =
      Self.number(after: "resulted in ", in: lowered)
      ?? Self.number(after: "requested tokens (", in: lowered)
      ?? Self.number(before: " in the messages", in: lowered)
      ?? Self.number(before: " in your prompt", in: lowered)
      ?? Self.number(after: "you requested ", in: lowered)
  }

  private static func number(before marker: String, in text: String) -> Int? {
    guard let range = text.range(of: marker) else { return nil }
    let digits = text[..<range.lowerBound].reversed().prefix(while: \.isNumber)
    return CountRange.parse(String(digits.reversed()))
  }

  private static func number(after marker: String, in text: String) -> Int? {
    guard let range = text.range(of: marker) else { return nil }
    let digits = text[range.upperBound...].prefix(while: \.isNumber)
    return CountRange.parse(digits)
  }
}
