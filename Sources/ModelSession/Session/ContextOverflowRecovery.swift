/// The session's rule for a generation the model refuses as larger than its
/// window: when the profile has a modifier that compacts on overflow, the
/// generation is retried once, with what the model said in the modifiers'
/// context; otherwise the error is the turn's error, as before.
///
/// The refused attempt publishes no generation record (the server read
/// nothing of it, so a prompt-cache analysis must not count it); the retry's
/// record carries a ``GenerationNote/Kind/contextOverflowRecovered`` note with
/// the model's numbers. A retry that fails again fails the turn with its own
/// error, unchanged, and the turn is rolled back like any failed turn.
enum ContextOverflowRecovery {
  /// The overflow to retry with, when `error` is a context-size refusal, the
  /// task is not cancelled, and one of `modifiers` compacts on overflow;
  /// otherwise `nil`.
  static func overflow(
    after error: any Error, request: LanguageModelExecutorGenerationRequest,
    modifiers: [any DynamicProfileModifier], model: any LanguageModel
  ) async -> ContextOverflow? {
    guard case .contextSizeExceeded(let refusal) = error as? LanguageModelError,
      !Task.isCancelled, modifiers.contains(where: \.compactsOnContextOverflow)
    else { return nil }
    var contextSize = refusal.contextSize > 0 ? refusal.contextSize : nil
    if contextSize == nil, let sizing = model as? any ContextSizeProviding {
      contextSize = try? await sizing.contextSize
    }
    return ContextOverflow(
      contextSize: contextSize, promptTokenCount: refusal.tokenCount,
      reservedResponseTokens: request.generationOptions.maximumResponseTokens ?? 0,
      refusedTranscript: request.transcript, message: refusal.debugDescription)
  }

  /// The note the retry's record carries.
  static func note(for overflow: ContextOverflow) -> GenerationNote {
    let prompt = overflow.promptTokenCount.map { "a prompt of \($0) tokens" } ?? "the prompt"
    let window = overflow.contextSize.map { "a window of \($0) tokens" } ?? "a window of unknown size"
    let reserve =
      overflow.reservedResponseTokens > 0
      ? ", with \(overflow.reservedResponseTokens) tokens reserved for the response" : ""
    return GenerationNote(
      source: "session", kind: .contextOverflowRecovered,
      message: "the model refused \(prompt) for \(window)\(reserve) (\(overflow.message)); "
        + "compacted the history and retried once")
  }
}
