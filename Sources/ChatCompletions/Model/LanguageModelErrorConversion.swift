import ModelSession

extension ChatCompletionsFailure {
  /// The error the executor throws: a `LanguageModelError` where the session
  /// API has a case for the failure, else the ``ChatCompletionsError``.
  ///
  /// This is the one place where transport failures become session errors.
  var thrownError: any Error {
    switch self {
    case .rateLimited(let resetDate, let error):
      LanguageModelError.rateLimited(
        .init(resetDate: resetDate, debugDescription: error.description, metadata: error.metadata))
    case .contextSizeExceeded(let contextSize, let tokenCount, let error):
      LanguageModelError.contextSizeExceeded(
        .init(
          contextSize: contextSize ?? 0, tokenCount: tokenCount ?? 0, debugDescription: error.description,
          metadata: error.metadata))
    case .timeout(let error):
      LanguageModelError.timeout(.init(debugDescription: error.description, metadata: error.metadata))
    case .guardrailViolation(let error):
      LanguageModelError.guardrailViolation(
        .init(debugDescription: error.description, metadata: error.metadata))
    case .other(let error):
      error
    }
  }
}

extension ChatCompletionsError {
  /// The error's details as `LanguageModelError` metadata: the kind, and the
  /// status, type and code when the server sent them.
  var metadata: [String: any Sendable] {
    var metadata: [String: any Sendable] = ["kind": kind.rawValue]
    if let status { metadata["status"] = status }
    if let type { metadata["type"] = type }
    if let code { metadata["code"] = code }
    if let timeoutStage { metadata["timeout"] = timeoutStage.rawValue }
    return metadata
  }
}
