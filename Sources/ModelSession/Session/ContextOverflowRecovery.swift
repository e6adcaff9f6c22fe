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

  /// The note the retry's record carries: the prompt's tokens, the window
  /// and the tokens reserved for the response, as counts (each when known),
  /// and the model's message as the reason.
  static func note(for overflow: ContextOverflow) -> GenerationNote {
    var counts: [GenerationNote.Field: Int] = [.reservedResponseTokens: overflow.reservedResponseTokens]
    counts[.promptTokens] = overflow.promptTokenCount
    counts[.contextSize] = overflow.contextSize
    var note = GenerationNote(
      source: "session", kind: .contextOverflowRecovered, message: "", names: [.reason: [overflow.message]],
      counts: counts)
    note.message = message(for: note)
    return note
  }

  /// The message of a `contextOverflowRecovered` note, from its fields.
  static func message(for note: GenerationNote) -> String {
    let prompt = note.counts[.promptTokens].map { "a prompt of \($0) tokens" } ?? "the prompt"
    let window = note.counts[.contextSize].map { "a window of \($0) tokens" } ?? "a window of unknown size"
    let reserved = note.counts[.reservedResponseTokens] ?? 0
    let reserve = reserved > 0 ? ", with \(reserved) tokens reserved for the response" : ""
    return "the model refused \(prompt) for \(window)\(reserve) (\(note.names(.reason).joined())); "
      + "compacted the history and retried once"
  }
}
