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
  public let tokenBudget: ContextBudget
  /// The tokens of context a compaction brings a generation down to, the
  /// reserved response included; `nil` for three eighths of the room the
  /// budget leaves the history.
  public let contextTarget: ContextBudget?
  /// The model that writes summaries; `nil` drops old turns instead.
  public let model: (any LanguageModel)?
  /// The tokens set aside for the summary entry, as given; `nil` for a quarter of the target.
  public let givenSummaryReserve: Int?
  /// The most tokens the pinned first turns may take, as given; `nil` for
  /// five eighths of the target without a summarizer, none with one.
  public let givenPinnedTokens: Int?
  /// What counts tokens.
  public let tokenCounter: any TokenCounter
  /// The summarizer's instructions.
  public let instructions: Instructions
  /// The text placed after the summary, for the main model.
  public let summaryPostamble: String
  /// The summarizer's timeout and retry delay, where summaries are kept, and
  /// where the modifier remembers when the tools or the instructions changed.
  public let options: Options

  /// The budget in tokens; 0 when it is a share of the window (resolved at each generation).
  public var budget: Int {
    if case .tokens(let count) = tokenBudget { return count }
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

  /// The default text after a summary, which keeps the main model from
  /// mentioning the summary in its answers. (`summarizeHistory` uses the
  /// companion package's words instead, ``SummarizeHistory/defaultPostamble``.)
  public static let defaultPostamble = """
    The summary above stands in for the earlier part of this conversation. Continue the conversation \
    naturally: do not mention the summary, do not say that you are relying on one, and answer the \
    latest message directly.
    """

  /// Creates the modifier, in the vocabulary the history modifiers share:
  /// sizes first, then the summarizer `model`, the `tokenCounter`, the
  /// summarizer's `instructions` and `summaryPostamble`, and `options`.
  ///
  /// - Parameters:
  ///   - tokenBudget: the most tokens the model sees, instructions included; at least 1.
  ///   - target: the tokens a compaction brings the history down to; below
  ///     `tokenBudget` (three eighths of it when `nil`).
  ///   - summaryReserve: the tokens set aside for the summary; below `target`
  ///     (a quarter of it when `nil`). Unused without a model.
  ///   - pinnedTokens: the most tokens the oldest turns kept at every
  ///     compaction may take; below `target` (five eighths of it without a
  ///     model, none with one, when `nil`).
  ///   - model: the model that summarizes the turns that go; `nil` drops them.
  ///   - tokenCounter: what counts tokens; `nil` estimates them.
  ///   - instructions: the summarizer's instructions.
  ///   - summaryPostamble: the text placed after the summary, for the main model.
  ///   - options: the summarizer's timeout, retry delay and store, and the prefix-break log.
  public init(
    tokenBudget: Int, target: Int? = nil, summaryReserve: Int? = nil, pinnedTokens: Int? = nil,
    model: (any LanguageModel)? = nil,
    tokenCounter: (any TokenCounter)? = nil,
    instructions: Instructions = SummarizeHistory.defaultInstructions,
    summaryPostamble: String = CompactingHistory.defaultPostamble, options: Options = Options()
  ) {
    self.init(
      tokenBudget: .tokens(tokenBudget), target: target.map(ContextBudget.tokens),
      summaryReserve: summaryReserve, pinnedTokens: pinnedTokens, model: model, tokenCounter: tokenCounter,
      instructions: instructions, summaryPostamble: summaryPostamble, options: options)
  }

  /// Creates the modifier with a budget and target in tokens or as shares of
  /// the model's window, the reserved response included (see ``ContextBudget``).
  ///
  /// ```swift
  /// CompactingHistory(tokenBudget: .contextShare(0.8), target: .contextShare(0.5))
  /// ```
  ///
  /// The other parameters are those of the initializer that takes the
  /// budget as a number of tokens.
  public init(
    tokenBudget: ContextBudget, target: ContextBudget? = nil, summaryReserve: Int? = nil,
    pinnedTokens: Int? = nil, model: (any LanguageModel)? = nil, tokenCounter: (any TokenCounter)? = nil,
    instructions: Instructions = SummarizeHistory.defaultInstructions,
    summaryPostamble: String = CompactingHistory.defaultPostamble, options: Options = Options()
  ) {
    self.tokenBudget = tokenBudget
    self.contextTarget = target
    self.model = model
    self.givenSummaryReserve = summaryReserve
    self.givenPinnedTokens = pinnedTokens
    self.tokenCounter = tokenCounter ?? EstimatingTokenCounter()
    self.instructions = instructions
    self.summaryPostamble = summaryPostamble
    self.options = options
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
  /// turns that go summarized by `model` when there is one, and dropped
  /// (the same turns) when there is none or its summary cannot be had or
  /// does not fit.
  func policy(_ limits: CompactionLimits) -> CompactionPolicy {
    var summary = CompactionPolicy.Summary.none
    if let model {
      summary = .summarize(
        CompactionSummaries(
          model: model, instructions: instructions, timeout: options.timeout, retryDelay: options.retryDelay,
          store: options.store, postamble: summaryPostamble))
    }
    return CompactionPolicy(
      source: name, threshold: .tokens(limits.budget), target: limits.target, pinned: limits.pinnedTokens,
      summaryReserve: model == nil ? 0 : limits.summaryReserve, compactsAtPrefixBreaks: true,
      summary: summary, summaryFallback: .droppingTheSameEntries, fittedToOverflow: limits.fittedToOverflow,
      notesOversizedTurn: true, tokenCounter: tokenCounter, prefixBreaks: options.prefixBreaks)
  }
}

extension DynamicProfile {
  /// Keeps the history within `tokenBudget` tokens, compacting the oldest
  /// turns in one large step down to `target` when it is exceeded (see
  /// ``CompactingHistory``); with a `model`, the turns that go are summarized.
  ///
  /// ```swift
  /// Profile { Instructions("You answer support questions.") }
  ///   .compactingHistory(tokenBudget: 8_000, model: cheapModel)
  /// ```
  public func compactingHistory(
    tokenBudget: Int, target: Int? = nil, summaryReserve: Int? = nil, pinnedTokens: Int? = nil,
    model: (any LanguageModel)? = nil,
    tokenCounter: (any TokenCounter)? = nil,
    instructions: Instructions = SummarizeHistory.defaultInstructions,
    summaryPostamble: String = CompactingHistory.defaultPostamble,
    options: CompactingHistory.Options = CompactingHistory.Options()
  ) -> ModifiedProfile<Self, CompactingHistory> {
    modifier(
      CompactingHistory(
        tokenBudget: tokenBudget, target: target, summaryReserve: summaryReserve, pinnedTokens: pinnedTokens,
        model: model,
        tokenCounter: tokenCounter, instructions: instructions, summaryPostamble: summaryPostamble,
        options: options))
  }
}

extension DynamicProfile {
  /// Keeps the history within `tokenBudget`, given in tokens or as a share
  /// of the model's window, the tokens reserved for the response included;
  /// compacts the oldest turns in one large step down to `target` when it is
  /// exceeded, and again to what fits when the model refuses a prompt as too
  /// long (see ``CompactingHistory`` and ``ContextBudget``).
  ///
  /// ```swift
  /// Profile { Instructions("You answer support questions.") }
  ///   .compactingHistory(tokenBudget: .contextShare(0.8), target: .contextShare(0.5))
  /// ```
  public func compactingHistory(
    tokenBudget: ContextBudget, target: ContextBudget? = nil, summaryReserve: Int? = nil,
    pinnedTokens: Int? = nil, model: (any LanguageModel)? = nil, tokenCounter: (any TokenCounter)? = nil,
    instructions: Instructions = SummarizeHistory.defaultInstructions,
    summaryPostamble: String = CompactingHistory.defaultPostamble,
    options: CompactingHistory.Options = CompactingHistory.Options()
  ) -> ModifiedProfile<Self, CompactingHistory> {
    modifier(
      CompactingHistory(
        tokenBudget: tokenBudget, target: target, summaryReserve: summaryReserve, pinnedTokens: pinnedTokens,
        model: model, tokenCounter: tokenCounter, instructions: instructions,
        summaryPostamble: summaryPostamble,
        options: options))
  }
}
