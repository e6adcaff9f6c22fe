extension ChatCompletionsError {
  /// This error with its message, type and code passed through `redaction`.
  ///
  /// ``ErrorBoundary`` applies it to every error that leaves the module, as
  /// the last line of defence: texts are redacted where they are built (before
  /// they are cut), and this pass catches a text that was built elsewhere,
  /// such as a tool-call id that the server echoed a secret into.
  ///
  /// The message is redacted whole, then cut to ``messageLimit`` characters;
  /// the type and code to ``ErrorMapper/fieldLimit``.
  func redacted(by redaction: Redaction) -> ChatCompletionsError {
    var copy = self
    copy.message = redaction.excerpt(of: message, limit: Self.messageLimit)
    copy.type = type.map { redaction.excerpt(of: $0, limit: ErrorMapper.fieldLimit) }
    copy.code = code.map { redaction.excerpt(of: $0, limit: ErrorMapper.fieldLimit) }
    return copy
  }

  /// The longest message an error leaves the module with: the server's text
  /// (at most ``ErrorMapper/messageLimit``) with room for what the client says around it.
  static let messageLimit = 4_096
}

extension ChatCompletionsFailure {
  /// This failure with its error passed through `redaction`.
  func redacted(by redaction: Redaction) -> ChatCompletionsFailure {
    switch self {
    case .rateLimited(let resetDate, let error):
      .rateLimited(resetDate: resetDate, error.redacted(by: redaction))
    case .contextSizeExceeded(let contextSize, let tokenCount, let error):
      .contextSizeExceeded(contextSize: contextSize, tokenCount: tokenCount, error.redacted(by: redaction))
    case .timeout(let error): .timeout(error.redacted(by: redaction))
    case .guardrailViolation(let error): .guardrailViolation(error.redacted(by: redaction))
    case .other(let error): .other(error.redacted(by: redaction))
    }
  }
}
