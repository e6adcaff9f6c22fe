extension LanguageModelExecutorGenerationChannel.Event {
  /// Output for the response entry the latest events went to (or a new one):
  /// the same as `.response(entryID: nil, action:)`.
  ///
  /// ```swift
  /// await channel.send(.response(action: .appendText(token)))
  /// ```
  public static func response(action: LanguageModelExecutorGenerationChannel.ResponseAction) -> Self {
    .response(entryID: nil, action: action)
  }

  /// Output for the trailing reasoning entry (or a new one): the same as
  /// `.reasoning(entryID: nil, action:)`.
  public static func reasoning(action: LanguageModelExecutorGenerationChannel.ReasoningAction) -> Self {
    .reasoning(entryID: nil, action: action)
  }

  /// Output for the trailing tool-calls entry (or a new one): the same as
  /// `.toolCalls(entryID: nil, action:)`.
  public static func toolCalls(action: LanguageModelExecutorGenerationChannel.ToolCallsAction) -> Self {
    .toolCalls(entryID: nil, action: action)
  }
}

extension LanguageModelExecutorGenerationChannel {
  /// Estimates token counts for text sent without one.
  static let textTokenEstimator = EstimatingTokenCounter()
}

extension LanguageModelExecutorGenerationChannel.ResponseAction {
  /// Appends text whose token count the provider does not say; it is
  /// estimated (see `EstimatingTokenCounter`) and only used when the
  /// generation reports no usage with `.updateUsage(input:output:)`.
  public static func appendText(_ text: String) -> Self {
    .appendText(
      text,
      tokenCount: LanguageModelExecutorGenerationChannel.textTokenEstimator.tokens(
        forByteCount: text.utf8.count))
  }
}

extension LanguageModelExecutorGenerationChannel.ReasoningAction {
  /// Appends reasoning text whose token count the provider does not say (estimated).
  public static func appendText(_ text: String) -> Self {
    .appendText(
      text,
      tokenCount: LanguageModelExecutorGenerationChannel.textTokenEstimator.tokens(
        forByteCount: text.utf8.count))
  }
}
