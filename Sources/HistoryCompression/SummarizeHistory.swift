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
  ///   - tokenCounter: what counts tokens for a threshold in tokens; `nil` uses
  ///     `options.tokenCounter`.
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
    self.tokenCounter = tokenCounter ?? options.tokenCounter
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
    // A summary this modifier committed sits in front of the prompt after it; the cuts see the two apart.
    let entries = SummaryPrompt.separatingHead(history.entries)
    let layout = HistoryLayout(entries)
    let measure = try await HistoryMeasure(entries, unit: threshold, counter: tokenCounter)
    let ledger = try await RetainedContextLedger(
      entries, unit: threshold.retainedUnit, counter: tokenCounter, retention: context.contextRetention)
    let target = Int(saturating: Double(threshold.value) * options.retainedFraction)
    let reserve = Self.summaryReserve(in: threshold, target: target)
    let plan = CompactionPlan(
      layout: layout, measure: measure, threshold: threshold.value, target: target, summarySize: reserve,
      end: entries.count, ledger: ledger)
    // Observed at every generation, so that a change of the instructions is seen when it happens.
    let prefixChanged = await options.prefixBreaks.changedNow(in: entries, layout: layout, context: context)
    guard var lastCut = plan.cuts.last else { return history }
    // The cut was planned with what the history held then; a key delivered
    // again since is in view: its copy goes.
    lastCut.reattachment = lastCut.reattachment.removing(keys: ledger.keys(deliveredFrom: lastCut.madeAt))
    guard let model = model ?? context.model else {
      return fallback(
        entries, layout: layout, measure: measure, ledger: ledger, reason: NoSummarizerModel(),
        context: context)
    }

    let summaries = CompactionSummaries(
      model: model, instructions: instructions, timeout: options.timeout, retryDelay: options.retryDelay,
      store: options.store)
    let summaryEntry: Transcript.Entry
    do {
      let text = try await summaries.summary(
        of: entries, layout: layout, cuts: plan.cuts, context: context, source: name)
      summaryEntry = HistorySummary.entry(summary: text, postamble: summaryPostamble)
    } catch {
      if Task.isCancelled { throw CancellationError() }
      return fallback(
        entries, layout: layout, measure: measure, ledger: ledger, reason: error, context: context)
    }
    // The summary counts against the threshold like any entry: one that does not fit is not used.
    let summarySize: Int
    switch threshold {
    case .entries: summarySize = 1
    case .tokens: summarySize = try await tokenCounter.tokenCount(of: summaryEntry)
    }
    let instructionsSize = layout.hasInstructions ? measure.size(0..<1) : 0
    let keptSize =
      instructionsSize + summarySize + lastCut.reattachment.size + measure.size(lastCut.start..<entries.count)
    if keptSize > threshold.value {
      return fallback(
        entries, layout: layout, measure: measure, ledger: ledger,
        reason: SummaryTooLarge(size: summarySize, unit: threshold.unitName, threshold: threshold),
        context: context)
    }
    if let previousEnd = HistoryLayout.previousGenerationEnd(entries, headEnd: layout.headEnd),
      lastCut.madeAt > previousEnd
    {
      context.record(
        HistoryNote.summarized(
          source: name, count: lastCut.start - layout.headEnd, firstKeptEntry: entries[lastCut.start].id))
      lastCut.reattachment.record(in: context, source: name)
    } else if prefixChanged {
      // New instructions count at their new size, which can move the cut or shrink the
      // room for retained context; the previous plan cannot be replayed, so say it again.
      lastCut.reattachment.record(in: context, source: name)
    }
    var kept: [Transcript.Entry] = []
    kept.reserveCapacity(entries.count - lastCut.start + 2 + lastCut.reattachment.entries.count)
    if layout.hasInstructions { kept.append(entries[0]) }
    kept.append(summaryEntry)
    kept.append(contentsOf: lastCut.reattachment.entries)
    kept.append(contentsOf: entries[lastCut.start...])
    // As in the framework, the summarized history becomes the session's history (see SummaryPrompt).
    context.commitHistory()
    return Transcript(entries: SummaryPrompt.mergingSummary(at: layout.hasInstructions ? 1 : 0, in: kept))
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

  private func fallback(
    _ entries: [Transcript.Entry], layout: HistoryLayout, measure: HistoryMeasure,
    ledger: RetainedContextLedger,
    reason: any Error, context: ProfileModifierContext
  ) -> Transcript {
    let window = RetainedWindow(
      layout: layout, measure: measure, ledger: ledger, budget: threshold.value, end: entries.count)
    let tooLarge = reason as? SummaryTooLarge
    context.record(
      HistoryNote.windowInstead(
        source: name, reason: tooLarge == nil ? "\(reason)" : nil, summarySize: tooLarge?.size,
        window: threshold.value, unit: threshold.unitName))
    window.reattachment.record(in: context, source: name)
    return window.apply(to: entries, head: layout.headEnd)
  }
}

/// The summary would put the history over the threshold.
struct SummaryTooLarge: Error, CustomStringConvertible {
  var size: Int
  var unit: String
  var threshold: HistorySize
  var description: String {
    "the summary takes \(size) \(unit), which would put the history over the threshold of \(threshold.value) \(threshold.unitName)"
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
