import Foundation

/// What a failed request or stream means for the caller: the single mapping
/// output of this module's error handling.
///
/// Every case carries the ``ChatCompletionsError`` with the server's details.
/// The session API's `LanguageModelError` is built from this value in one
/// place (the executor), so the cases line up with its cases.
enum ChatCompletionsFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// HTTP 429: the server asks the client to slow down, until `resetDate` when known.
  case rateLimited(resetDate: Date?, ChatCompletionsError)
  /// The prompt does not fit the model's context window.
  case contextSizeExceeded(contextSize: Int?, tokenCount: Int?, ChatCompletionsError)
  /// The request or the stream took longer than the configured timeout.
  case timeout(ChatCompletionsError)
  /// The server's content filter refused the prompt or the answer.
  case guardrailViolation(ChatCompletionsError)
  /// Any other failure.
  case other(ChatCompletionsError)

  /// The details of the failure.
  var error: ChatCompletionsError {
    switch self {
    case .rateLimited(_, let error), .contextSizeExceeded(_, _, let error), .timeout(let error),
      .guardrailViolation(let error), .other(let error):
      error
    }
  }

  var description: String {
    switch self {
    case .rateLimited(let resetDate, let error):
      "rate limited" + (resetDate.map { " until \($0)" } ?? "") + " (\(error))"
    case .contextSizeExceeded(let contextSize, let tokenCount, let error):
      "context size exceeded"
        + (tokenCount.map { " with \($0) tokens" } ?? "")
        + (contextSize.map { " (context \($0))" } ?? "") + " (\(error))"
    case .timeout(let error): "timed out (\(error))"
    case .guardrailViolation(let error): "guardrail violation (\(error))"
    case .other(let error): error.description
    }
  }
}
