import ModelSession

extension ScriptStep {
  /// Plays `step` when the request fits `window` tokens as `counter` counts
  /// them (the transcript's entries plus the response's
  /// `maximumResponseTokens`), and otherwise refuses it as a server does:
  /// with `LanguageModelError.contextSizeExceeded` that gives the window and
  /// the prompt's size. The model's own count is `counter`'s times `scale`,
  /// so a test can make the modifiers' counter wrong on purpose.
  public static func refusingOver(
    window: Int, counter: any TokenCounter, scale: Int = 1, then step: ScriptStep
  ) -> ScriptStep {
    ScriptStep { request, channel in
      let counted = try await counter.tokenCounts(of: request.transcript.entries).reduce(0, +)
      let promptTokens = counted * scale
      let reserved = request.generationOptions.maximumResponseTokens ?? 0
      guard promptTokens + reserved <= window else {
        throw LanguageModelError.contextSizeExceeded(
          .init(
            contextSize: window, tokenCount: promptTokens,
            debugDescription: "maximum context length is \(window) tokens; the prompt has \(promptTokens)"))
      }
      try await step.run(request, channel)
    }
  }
}
