import ModelSession

/// The one place where errors leave the module.
///
/// Inside, code throws ``ChatCompletionsFailure`` and ``TransportFailure``;
/// every public API (the client, the chunk stream, the executor, the
/// tokenizer and the token counter) passes what it catches through
/// ``publicError(for:mapper:)``, so that callers only ever see
/// `LanguageModelError`, ``ChatCompletionsError`` or `CancellationError`.
enum ErrorBoundary {
  /// The error a public API throws for `error`.
  ///
  /// Every ``ChatCompletionsError`` (on its own or inside a failure) passes
  /// through the endpoint's ``Redaction`` here, whoever built it.
  static func publicError(for error: any Error, mapper: ErrorMapper) -> any Error {
    switch error {
    case is CancellationError, is LanguageModelError:
      return error
    case let error as ChatCompletionsError:
      return error.redacted(by: mapper.redaction)
    case let failure as ChatCompletionsFailure:
      return failure.redacted(by: mapper.redaction).thrownError
    default:
      let mapped = mapper.failure(transportError: error)
      if let failure = mapped as? ChatCompletionsFailure {
        return failure.redacted(by: mapper.redaction).thrownError
      }
      return mapped
    }
  }
}
