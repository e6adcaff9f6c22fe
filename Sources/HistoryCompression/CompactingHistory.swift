import ModelSession

/// Keeps the history within a token budget while changing the prefix the
/// model sees as rarely as possible, so that a server's prompt cache keeps
/// working.
///
/// While the history (instructions included) fits `budget`, it is passed on
/// unchanged, and the prefix only grows. When it no longer fits, turns go in
/// one large step, down to `target` tokens (three eighths of the budget by
/// default): dropped, or, when a `summarizer` model is given, replaced by one
/// summary entry (see ``HistorySummary``). From then on the visible history
/// is again append-only until the budget is reached the next time. A server
/// re-processes the history once per compaction instead of on every turn,
/// as it does behind a window that trims a little each turn.
///
/// The turns that go are the oldest ones after the *pinned* turns: the
/// first turns of the conversation, up to `pinnedTokens` (five eighths of
/// the target by default when dropping, none when summarizing), are chosen
/// at the first compaction and kept at every later one. They usually state
/// the task, and because they sit right after the instructions and never
/// move, a server keeps reusing them from its cache: a compaction only
/// re-processes what comes after them. They are given up when they and the
/// current turn no longer fit the budget together.
///
/// A change of the tools or of the instructions text (an instructions skill
/// switching on or off) makes the server re-process the whole history
/// anyway. The modifier notices it (it remembers the prefix of the last
/// generation it saw in a ``PrefixBreakLog``) and compacts in that same
/// generation when the history is over `target`, instead of paying for a
/// re-processing of its own a few turns later.
///
/// Cuts fall where a turn starts, never between a tool call and its output
/// and never inside the current turn; the instructions entry (with the
/// catalog and the bodies of active instructions skills) and summaries
/// already at the head are kept. Where the cuts fall depends only on the
/// history's content and on where the prefix changed (the history is
/// replayed as if the modifier had run after each entry), so the same stored
/// history always gives the same visible history, and each summary is
/// computed once and kept in a ``SummaryStore``.
///
/// With a summarizer, `summaryReserve` tokens are set aside for the summary
/// entry when choosing the cut. A summary that would put the history over
/// the budget, or a summarizer that fails or times out, makes the modifier
/// drop the same turns instead and record a `fallback` note: the user's
/// request never fails, and the budget holds. (A generation cancelled while
/// the summarizer runs ends with `CancellationError`: it does not fall back.)
/// A summarizer that failed is not asked again for the same turns within
/// `retryDelay`. The budget is only exceeded when the instructions and the
/// current turn alone are larger; a note says so.
///
/// The instructions count at their current size: when an instructions skill
/// changes it, the cuts are computed again (at a generation whose prefix the
/// new instructions invalidate anyway). Prompt skills delivered as a tool
/// output leave the history with their turn like any tool output; the
/// skills catalog notices and delivers the body again when the model asks
/// for it.
///
/// ```swift
/// Profile { Instructions("You answer support questions.") }
///   .compactingHistory(tokenBudget: 4_096)
/// ```
public struct CompactingHistory: DynamicProfileModifier {
  /// The stage's name in generation records: `compactingHistory`.
  public var name: String { "compactingHistory" }
  /// The most tokens of context a generation takes: the history the model
  /// sees, instructions included, and the tokens reserved for the response
  /// (see ``ContextBudget``).
  public let contextBudget: ContextBudget
  /// The tokens of context a compaction brings a generation down to, the
  /// reserved response included; `nil` for three eighths of the room the
  /// budget leaves the history.
  public let contextTarget: ContextBudget?
  /// The model that writes summaries; `nil` drops old turns instead.
  public let summarizer: (any LanguageModel)?
  /// The tokens set aside for the summary entry, as given; `nil` for a quarter of the target.
  public let givenSummaryReserve: Int?
  /// The most tokens the pinned first turns may take, as given; `nil` for
  /// five eighths of the target without a summarizer, none with one.
  public let givenPinnedTokens: Int?

  /// The budget in tokens; 0 when it is a share of the window (resolved at each generation).
  public var budget: Int {
    if case .tokens(let count) = contextBudget { return count }
    return 0
  }
  /// The target in tokens, for a generation that reserves nothing for the
  /// response; 0 when the budget or the target is a share of the window.
  public var target: Int { resolvedWithoutWindow?.target ?? 0 }
  /// The tokens set aside for the summary entry, for a generation that
  /// reserves nothing for the response; 0 when a share of the window decides it.
  public var summaryReserve: Int { resolvedWithoutWindow?.summaryReserve ?? 0 }
  /// The most tokens the oldest turns kept at every compaction may take, for
  /// a generation that reserves nothing for the response; 0 when a share of
  /// the window decides it.
  public var pinnedTokens: Int { resolvedWithoutWindow?.pinnedTokens ?? 0 }

  private var resolvedWithoutWindow: CompactionLimits? {
    try? CompactionLimits.resolve(self, contextSize: nil, reservedResponseTokens: 0)
  }

  /// What counts tokens.
  public let tokenCounter: any TokenCounter
  /// The summarizer's instructions and settings, and where summaries are kept.
  public let summaryOptions: SummaryOptions
  /// Where the modifier remembers when the tools or the instructions changed.
  public let prefixBreaks: PrefixBreakLog

  /// The summarizer's settings.
  public struct SummaryOptions: Sendable {
    /// The summarizer's instructions.
    public var instructions: Instructions
    /// The text placed after the summary, for the main model.
    public var postamble: String
    /// How long the summarizer may take before the modifier drops the turns
    /// instead; more than zero when there is a summarizer.
    public var timeout: Duration
    /// How long after a failed summarization the modifier drops the turns at
    /// once instead of asking the summarizer again for the same range.
    public var retryDelay: Duration
    /// Where summaries are kept between generations.
    public var store: SummaryStore

    /// Creates settings; the defaults are those of ``SummarizeHistory``.
    public init(
      instructions: Instructions = SummarizeHistory.defaultInstructions,
      postamble: String = CompactingHistory.defaultPostamble, timeout: Duration = .seconds(30),
      retryDelay: Duration = .seconds(60), store: SummaryStore = .shared
    ) {
      self.instructions = instructions
      self.postamble = postamble
      self.timeout = timeout
      self.retryDelay = retryDelay
      self.store = store
    }
  }

  /// Creates the modifier.
  ///
  /// - Parameters:
  ///   - budget: the most tokens the model sees, instructions included; at least 1.
  ///   - target: the tokens a compaction brings the history down to; below
  ///     `budget` (three eighths of it when `nil`).
  ///   - summarizer: the model that summarizes the turns that go; `nil` drops them.
  ///   - summaryReserve: the tokens set aside for the summary; below `target`
  ///     (a quarter of it when `nil`). Unused without a summarizer.
  ///   - pinnedTokens: the most tokens the oldest turns kept at every
  ///     compaction may take; below `target` (five eighths of it without a
  ///     summarizer, none with one, when `nil`).
  ///   - prefixBreaks: where the modifier remembers when the tools or the instructions changed.
  ///   - tokenCounter: what measures entries against the budget.
  ///   - summaryOptions: how the summarizer is asked, and where summaries are kept.
  public init(
    budget: Int, target: Int? = nil, summarizer: (any LanguageModel)? = nil, summaryReserve: Int? = nil,
    pinnedTokens: Int? = nil, tokenCounter: any TokenCounter = EstimatingTokenCounter(),
    summaryOptions: SummaryOptions = SummaryOptions(), prefixBreaks: PrefixBreakLog = .shared
  ) {
    self.init(
      contextBudget: .tokens(budget), target: target.map(ContextBudget.tokens), summarizer: summarizer,
      summaryReserve: summaryReserve, pinnedTokens: pinnedTokens, tokenCounter: tokenCounter,
      summaryOptions: summaryOptions, prefixBreaks: prefixBreaks)
  }

  /// Creates the modifier with a budget and target in tokens or as shares of
  /// the model's window (see ``ContextBudget``).
  ///
  /// ```swift
  /// CompactingHistory(contextBudget: .contextShare(0.8), target: .contextShare(0.5))
  /// ```
  ///
  /// The other parameters are those of ``init(budget:target:summarizer:summaryReserve:pinnedTokens:tokenCounter:summaryOptions:prefixBreaks:)``.
  public init(
    contextBudget: ContextBudget, target: ContextBudget? = nil, summarizer: (any LanguageModel)? = nil,
    summaryReserve: Int? = nil, pinnedTokens: Int? = nil,
    tokenCounter: any TokenCounter = EstimatingTokenCounter(),
    summaryOptions: SummaryOptions = SummaryOptions(), prefixBreaks: PrefixBreakLog = .shared
  ) {
    self.contextBudget = contextBudget
    self.contextTarget = target
    self.prefixBreaks = prefixBreaks
    self.summarizer = summarizer
    self.givenSummaryReserve = summaryReserve
    self.givenPinnedTokens = pinnedTokens
    self.tokenCounter = tokenCounter
    self.summaryOptions = summaryOptions
  }

  /// `true`: a session retries a generation the model refused as too long,
  /// and this modifier compacts the history to what the refusal says fits.
  public var compactsOnContextOverflow: Bool { true }

  /// Compacts the history when it is over the budget, or keeps the last compaction.
  public func transformHistory(
    _ history: Transcript, in context: ProfileModifierContext
  ) async throws -> Transcript {
    let limits = try await CompactionLimits.resolve(self, in: context)
    return try await CompactionEngine(policy: policy(limits)).compact(history, in: context)
  }

  /// This modifier as a policy of the compaction engine, with the limits of
  /// one generation: cuts in tokens down to the target after the pinned
  /// first turns, early at a change of the tools or the instructions; the
  /// turns that go summarized by `summarizer` when there is one, and dropped
  /// (the same turns) when there is none or its summary cannot be had or
  /// does not fit.
  func policy(_ limits: CompactionLimits) -> CompactionPolicy {
    var summary = CompactionPolicy.Summary.none
    if let summarizer {
      summary = .summarize(
        CompactionSummaries(
          model: summarizer, instructions: summaryOptions.instructions, timeout: summaryOptions.timeout,
          retryDelay: summaryOptions.retryDelay, store: summaryOptions.store,
          postamble: summaryOptions.postamble))
    }
    return CompactionPolicy(
      source: name, threshold: .tokens(limits.budget), target: limits.target, pinned: limits.pinnedTokens,
      summaryReserve: summarizer == nil ? 0 : limits.summaryReserve, compactsAtPrefixBreaks: true,
      summary: summary, summaryFallback: .droppingTheSameEntries, fittedToOverflow: limits.fittedToOverflow,
      notesOversizedTurn: true, tokenCounter: tokenCounter, prefixBreaks: prefixBreaks)
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
    pinnedTokens: Int? = nil, tokenCounter: any TokenCounter = EstimatingTokenCounter(),
    summaryOptions: CompactingHistory.SummaryOptions = CompactingHistory.SummaryOptions()
  ) -> ModifiedProfile<Self, CompactingHistory> {
    modifier(
      CompactingHistory(
        budget: budget, target: target, summarizer: summarizer, summaryReserve: summaryReserve,
        pinnedTokens: pinnedTokens, tokenCounter: tokenCounter, summaryOptions: summaryOptions))
  }
}
