import ModelSession

/// Replaces older history with a summary when the history grows past a
/// threshold, keeping the recent part verbatim; as in the framework, the
/// result becomes the session's history.
///
/// When the history (instructions included) passes `threshold`, the older
/// part is summarized by `model` (the session's own model when `model` is
/// `nil`) and replaced by the summary, written in front of the first prompt
/// kept (see ``SummaryPrompt``; when context put back after the cut comes
/// first, the summary stays an entry of its own, see ``HistorySummary``).
/// The modifier commits that history (`ProfileModifierContext.commitHistory()`):
/// `session.transcript` holds it from then on, and `session.fullTranscript`
/// keeps every entry it replaced. A fallback (below) is not committed: it
/// only shapes what the model sees. The cut falls where a turn starts, so tool calls
/// stay with their outputs, and never inside the current turn; it works in
/// the middle of a tool loop too. A summary already in the history is folded
/// into the new one, never summarized as if it were conversation.
///
/// The modifier is built for a stable prompt cache: the cut moves in large
/// steps (down to `retainedFraction` of the threshold each time the
/// threshold is passed) and the summary of a given range is computed once and
/// reused from a ``SummaryStore``, so between compactions the prefix the
/// model sees stays byte-identical. The summary entry counts against the
/// threshold: a quarter of the retained size is set aside for it, and a
/// summary that would still put the history over the threshold is not used
/// (the modifier falls back, as below), so the history never goes over.
/// Keep the summarizer's answers short (the default instructions ask for that).
///
/// If the summarizer fails, answers with nothing or exceeds the timeout, the
/// modifier keeps a rolling window of the same size instead and records a
/// `fallback` note: the user's request never fails because of the
/// summarizer. A threshold below 1 or a fraction outside (0, 1) makes
/// `transformHistory` throw ``HistoryCompressionError``.
///
/// ```swift
/// Profile { Instructions("You are a patient tutor.") }
///   .summarizeHistory(entryThreshold: 40)  // the session's model summarizes
/// ```
public struct SummarizeHistory: DynamicProfileModifier {
  /// The stage's name in generation records: `summarizeHistory`.
  public var name: String { "summarizeHistory" }
  /// The size past which the history is compacted.
  public let threshold: HistorySize
  /// The model that writes summaries; `nil` uses the session's model.
  public let model: (any LanguageModel)?
  /// What counts tokens, for a threshold in tokens.
  public let tokenCounter: any TokenCounter
  /// The summarizer's instructions.
  public let instructions: Instructions
  /// The text placed after the summary, for the main model.
  public let summaryPostamble: String
  /// The other settings.
  public let options: Options

  /// Creates the modifier.
  ///
  /// - Parameters:
  ///   - threshold: the size past which the history is compacted; at least 1.
  ///   - model: the model that writes summaries; `nil` uses the session's model.
  ///   - tokenCounter: what counts tokens for a threshold in tokens; `nil`
  ///     estimates them.
  ///   - instructions: the summarizer's instructions.
  ///   - summaryPostamble: the text placed after the summary, for the main model.
  ///   - options: the other settings.
  public init(
    threshold: HistorySize, model: (any LanguageModel)? = nil, tokenCounter: (any TokenCounter)? = nil,
    instructions: Instructions = Self.defaultInstructions, summaryPostamble: String = Self.defaultPostamble,
    options: Options = Options()
  ) {
    self.threshold = threshold
    self.model = model
    self.tokenCounter = tokenCounter ?? options.earlierTokenCounter ?? EstimatingTokenCounter()
    self.instructions = instructions
    self.summaryPostamble = summaryPostamble
    self.options = options
  }

  /// Creates the modifier with a threshold in entries (the companion package's spelling).
  public init(
    entryThreshold: Int, model: (any LanguageModel)? = nil,
    instructions: Instructions = Self.defaultInstructions, summaryPostamble: String = Self.defaultPostamble,
    options: Options = Options()
  ) {
    self.init(
      threshold: .entries(entryThreshold), model: model, instructions: instructions,
      summaryPostamble: summaryPostamble, options: options)
  }

  /// Creates the modifier with a threshold in tokens.
  public init(
    tokenThreshold: Int, model: (any LanguageModel)? = nil, tokenCounter: (any TokenCounter)? = nil,
    instructions: Instructions = Self.defaultInstructions, summaryPostamble: String = Self.defaultPostamble,
    options: Options = Options()
  ) {
    self.init(
      threshold: .tokens(tokenThreshold), model: model, tokenCounter: tokenCounter,
      instructions: instructions,
      summaryPostamble: summaryPostamble, options: options)
  }

  /// Compacts the history when it is past the threshold.
  public func transformHistory(
    _ history: Transcript, in context: ProfileModifierContext
  ) async throws -> Transcript {
    try validate()
    return try await CompactionEngine(policy: policy(in: context)).compact(history, in: context)
  }

  /// This modifier as a policy of the compaction engine: cuts in the
  /// threshold's unit down to `retainedFraction` of it, nothing pinned, the
  /// older part summarized by `model` (or the session's), and a rolling
  /// window of the threshold's size when the summary cannot be had or does
  /// not fit; a summarized history becomes the session's history.
  func policy(in context: ProfileModifierContext) -> CompactionPolicy {
    let target = Int(saturating: Double(threshold.value) * options.retainedFraction)
    var summary = CompactionPolicy.Summary.unavailable(reason: NoSummarizerModel())
    if let model = model ?? context.model {
      summary = .summarize(
        CompactionSummaries(
          model: model, instructions: instructions, timeout: options.timeout, retryDelay: options.retryDelay,
          store: options.store, postamble: summaryPostamble))
    }
    return CompactionPolicy(
      source: name, threshold: threshold, target: target,
      summaryReserve: Self.summaryReserve(in: threshold, target: target), summary: summary,
      summaryFallback: .rollingWindow, commitsSummarizedHistory: true, tokenCounter: tokenCounter,
      prefixBreaks: options.prefixBreaks)
  }

  /// What the plan sets aside for the summary entry, whose length is not
  /// known until the summarizer answers: one entry, or a quarter of the
  /// size a compaction brings the history down to.
  static func summaryReserve(in unit: HistorySize, target: Int) -> Int {
    switch unit {
    case .entries: 1
    case .tokens: target / 4
    }
  }

  private func validate() throws {
    try threshold.validated(for: name)
    guard options.retainedFraction > 0, options.retainedFraction < 1 else {
      throw HistoryCompressionError.invalidFraction(
        modifier: name, name: "retainedFraction", value: options.retainedFraction, range: "(0, 1)")
    }
    guard options.timeout > .zero else {
      throw HistoryCompressionError.invalidTimeout(modifier: name, timeout: options.timeout)
    }
  }
}

/// No summarizer model was given and the modifier ran outside a session.
struct NoSummarizerModel: Error, CustomStringConvertible {
  var description: String { "no summarizer model was given and there is no session model to use" }
}

extension DynamicProfile {
  /// Summarizes older history when it passes `entryThreshold` entries (see
  /// ``SummarizeHistory``); without a `model`, the session's own model summarizes.
  ///
  /// ```swift
  /// Profile { Instructions("You are a patient tutor.") }
  ///   .summarizeHistory(entryThreshold: 40)
  /// ```
  public func summarizeHistory(
    entryThreshold: Int, model: (any LanguageModel)? = nil,
    instructions: Instructions = SummarizeHistory.defaultInstructions,
    summaryPostamble: String = SummarizeHistory.defaultPostamble,
    options: SummarizeHistory.Options = SummarizeHistory.Options()
  ) -> ModifiedProfile<Self, SummarizeHistory> {
    summarizeHistory(
      threshold: .entries(entryThreshold), model: model, instructions: instructions,
      summaryPostamble: summaryPostamble, options: options)
  }

  /// Summarizes older history when it passes `tokenThreshold` tokens (see
  /// ``SummarizeHistory``); without a `model`, the session's own model summarizes.
  ///
  /// ```swift
  /// Profile { Instructions("You are a patient tutor.") }
  ///   .summarizeHistory(tokenThreshold: 8_000, model: cheapModel)
  /// ```
  public func summarizeHistory(
    tokenThreshold: Int, model: (any LanguageModel)? = nil, tokenCounter: (any TokenCounter)? = nil,
    instructions: Instructions = SummarizeHistory.defaultInstructions,
    summaryPostamble: String = SummarizeHistory.defaultPostamble,
    options: SummarizeHistory.Options = SummarizeHistory.Options()
  ) -> ModifiedProfile<Self, SummarizeHistory> {
    summarizeHistory(
      threshold: .tokens(tokenThreshold), model: model, tokenCounter: tokenCounter,
      instructions: instructions,
      summaryPostamble: summaryPostamble, options: options)
  }

  /// Summarizes older history when it passes `threshold` (see
  /// ``SummarizeHistory``); without a `model`, the session's own model summarizes.
  ///
  /// ```swift
  /// Profile { Instructions("You are a patient tutor.") }
  ///   .summarizeHistory(threshold: .tokens(8_000), model: cheapModel)
  /// ```
  public func summarizeHistory(
    threshold: HistorySize, model: (any LanguageModel)? = nil, tokenCounter: (any TokenCounter)? = nil,
    instructions: Instructions = SummarizeHistory.defaultInstructions,
    summaryPostamble: String = SummarizeHistory.defaultPostamble,
    options: SummarizeHistory.Options = SummarizeHistory.Options()
  ) -> ModifiedProfile<Self, SummarizeHistory> {
    modifier(
      SummarizeHistory(
        threshold: threshold, model: model, tokenCounter: tokenCounter, instructions: instructions,
        summaryPostamble: summaryPostamble, options: options))
  }
}
