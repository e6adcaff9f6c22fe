import ModelSession

/// Keeps the history within a token budget while changing the prefix the
/// model sees as rarely as possible, so that a server's prompt cache keeps
/// working.
///
/// While the history (instructions included) fits `budget`, it is passed on
/// unchanged, and the prefix only grows. When it no longer fits, the oldest
/// turns go in one large step, down to `target` tokens (half the budget by
/// default): dropped, or, when a `summarizer` model is given, replaced by one
/// summary entry right after the instructions (see ``HistorySummary``). From
/// then on the visible history is again append-only until the budget is
/// reached the next time. A server re-processes the history once per
/// compaction instead of on every turn, as it does behind a window that
/// trims a little each turn.
///
/// Cuts fall where a turn starts, never between a tool call and its output
/// and never inside the current turn; the instructions entry (with the
/// catalog and the bodies of active instructions skills) and summaries
/// already at the head are kept. Where the cuts fall depends only on the
/// history's content (the history is replayed as if the modifier had run
/// after each entry), so the same stored history always gives the same
/// visible history, and each summary is computed once and kept in a
/// ``SummaryStore``.
///
/// With a summarizer, `summaryReserve` tokens are set aside for the summary
/// entry when choosing the cut. A summary that would put the history over
/// the budget, or a summarizer that fails or times out, makes the modifier
/// drop the same turns instead and record a `fallback` note: the user's request never
/// fails, and the budget holds. The budget is only exceeded when the
/// instructions and the current turn alone are larger; a note says so.
///
/// The instructions count at their current size: when an instructions skill
/// changes it, the cuts are computed again (at a generation whose prefix the
/// new instructions invalidate anyway). Prompt skills delivered as a tool
/// output leave the history with their turn like any tool output; the skills catalog notices and delivers the
/// body again when the model asks for it.
///
/// ```swift
/// Profile { Instructions("You answer support questions.") }
///   .compactingHistory(budget: 4_096)
/// ```
public struct CompactingHistory: DynamicProfileModifier {
  /// The stage's name in generation records: `compactingHistory`.
  public var name: String { "compactingHistory" }
  /// The most tokens the model sees, instructions included.
  public let budget: Int
  /// The tokens a compaction brings the history down to.
  public let target: Int
  /// The model that writes summaries; `nil` drops old turns instead.
  public let summarizer: (any LanguageModel)?
  /// The tokens set aside for the summary entry.
  public let summaryReserve: Int
  /// What counts tokens.
  public let tokenCounter: any TokenCounter
  /// The summarizer's instructions and settings, and where summaries are kept.
  public let summaryOptions: SummaryOptions

  /// The summarizer's settings.
  public struct SummaryOptions: Sendable {
    /// The summarizer's instructions.
    public var instructions: Instructions
    /// The text placed after the summary, for the main model.
    public var postamble: String
    /// How long the summarizer may take before the modifier drops the turns instead.
    public var timeout: Duration
    /// Where summaries are kept between generations.
    public var store: SummaryStore

    /// Creates settings; the defaults are those of ``SummarizeHistory``.
    public init(
      instructions: Instructions = SummarizeHistory.defaultInstructions,
      postamble: String = SummarizeHistory.defaultPostamble, timeout: Duration = .seconds(30),
      store: SummaryStore = .shared
    ) {
      self.instructions = instructions
      self.postamble = postamble
      self.timeout = timeout
      self.store = store
    }
  }

  /// Creates the modifier.
  ///
  /// - Parameters:
  ///   - budget: the most tokens the model sees, instructions included; at least 1.
  ///   - target: the tokens a compaction brings the history down to; below
  ///     `budget` (half of it when `nil`).
  ///   - summarizer: the model that summarizes the turns that go; `nil` drops them.
  ///   - summaryReserve: the tokens set aside for the summary; below `target`
  ///     (a quarter of it when `nil`). Unused without a summarizer.
  public init(
    budget: Int, target: Int? = nil, summarizer: (any LanguageModel)? = nil, summaryReserve: Int? = nil,
    tokenCounter: any TokenCounter = EstimatingTokenCounter(),
    summaryOptions: SummaryOptions = SummaryOptions()
  ) {
    self.budget = budget
    let target = target ?? budget / 2
    self.target = target
    self.summarizer = summarizer
    self.summaryReserve = summaryReserve ?? target / 4
    self.tokenCounter = tokenCounter
    self.summaryOptions = summaryOptions
  }

  /// Compacts the history when it is over the budget, or keeps the last compaction.
  public func transformHistory(
    _ history: Transcript, in context: ProfileModifierContext
  ) async throws -> Transcript {
    try validate()
    let entries = history.entries
    let layout = HistoryLayout(entries)
    let measure = try await HistoryMeasure(entries, unit: .tokens(budget), counter: tokenCounter)
    let reserve = summarizer == nil ? 0 : summaryReserve
    let plan = CompactionPlan(
      layout: layout, measure: measure, threshold: budget, target: target, summarySize: reserve,
      end: entries.count)
    let start = plan.start
    let kept = measure.size(0..<layout.headEnd) + measure.size(start..<entries.count)
    if kept + (start > layout.headEnd ? reserve : 0) > budget {
      context.record(
        GenerationNote(
          source: name, kind: .information,
          message: "the instructions and the current turn take \(kept) tokens, more than the budget of "
            + "\(budget); kept the current turn whole"))
    }
    guard let lastCut = plan.cuts.last else { return history }
    if let previousEnd = HistoryLayout.previousGenerationEnd(entries, headEnd: layout.headEnd),
      lastCut.madeAt > previousEnd
    {
      context.record(
        GenerationNote(
          source: name, kind: .historyRewritten,
          message: "compacted: \(lastCut.start - layout.headEnd) older entries "
            + (summarizer == nil ? "dropped" : "summarized")
            + "; the history is verbatim from entry \(entries[lastCut.start].id)"))
    }
    let dropped = RollingWindow.keeping(entries, head: layout.headEnd, from: lastCut.start)
    guard let summarizer else { return dropped }
    let instructionsSize = layout.hasInstructions ? measure.size(0..<1) : 0
    return await summarized(
      entries, layout: layout, cuts: plan.cuts, summarizer: summarizer, dropped: dropped,
      keptSize: instructionsSize + measure.size(lastCut.start..<entries.count), context: context)
  }

  private func validate() throws {
    try HistorySize.tokens(budget).validated(for: name)
    try HistorySize.tokens(target).validated(for: name)
    guard target < budget else {
      throw HistoryCompressionError.invalidFraction(
        modifier: name, name: "target / budget", value: Double(target) / Double(budget), range: "(0, 1)")
    }
    guard summarizer == nil || (summaryReserve >= 0 && summaryReserve < target) else {
      throw HistoryCompressionError.invalidFraction(
        modifier: name, name: "summaryReserve / target", value: Double(summaryReserve) / Double(target),
        range: "[0, 1)")
    }
  }

  /// The head, a summary of everything before the last cut, then the rest;
  /// `dropped` when the summary cannot be had or does not fit.
  private func summarized(
    _ entries: [Transcript.Entry], layout: HistoryLayout, cuts: [CompactionPlan.Cut],
    summarizer: any LanguageModel, dropped: Transcript, keptSize: Int, context: ProfileModifierContext
  ) async -> Transcript {
    let memo = CompactionSummaries(
      model: summarizer, instructions: summaryOptions.instructions, timeout: summaryOptions.timeout,
      store: summaryOptions.store)
    let summaryEntry: Transcript.Entry
    let summaryTokens: Int
    do {
      let text = try await memo.summary(
        of: entries, layout: layout, cuts: cuts, context: context, source: name)
      summaryEntry = HistorySummary.entry(summary: text, postamble: summaryOptions.postamble)
      summaryTokens = try await tokenCounter.tokenCount(of: summaryEntry)
    } catch {
      context.record(
        GenerationNote(
          source: name, kind: .fallback,
          message: "the summarizer failed (\(error)); dropped the older turns instead"))
      return dropped
    }
    guard keptSize + summaryTokens <= budget else {
      context.record(
        GenerationNote(
          source: name, kind: .fallback,
          message: "the summary takes \(summaryTokens) tokens, which would put the history over the budget "
            + "of \(budget); dropped the older turns instead"))
      return dropped
    }
    var kept: [Transcript.Entry] = []
    kept.reserveCapacity(dropped.count + 1)
    if layout.hasInstructions { kept.append(entries[0]) }
    kept.append(summaryEntry)
    kept.append(contentsOf: dropped.entries[layout.headEnd...])
    return Transcript(entries: kept)
  }
}

extension DynamicProfile {
  /// Keeps the history within `budget` tokens, compacting the oldest turns in
  /// one large step down to `target` when it is exceeded (see ``CompactingHistory``).
  ///
  /// ```swift
  /// profile.compactingHistory(budget: 8_000, summarizer: cheapModel)
  /// ```
  public func compactingHistory(
    budget: Int, target: Int? = nil, summarizer: (any LanguageModel)? = nil, summaryReserve: Int? = nil,
    tokenCounter: any TokenCounter = EstimatingTokenCounter(),
    summaryOptions: CompactingHistory.SummaryOptions = CompactingHistory.SummaryOptions()
  ) -> ModifiedProfile<Self, CompactingHistory> {
    modifier(
      CompactingHistory(
        budget: budget, target: target, summarizer: summarizer, summaryReserve: summaryReserve,
        tokenCounter: tokenCounter, summaryOptions: summaryOptions))
  }
}
