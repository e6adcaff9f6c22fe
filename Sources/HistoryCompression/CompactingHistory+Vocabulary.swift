import ModelSession

extension CompactingHistory {
  /// The summarizer's settings beyond its model, instructions and postamble.
  public struct Options: Sendable {
    /// How long the summarizer may take before the modifier drops the turns instead.
    public var timeout: Duration
    /// How long after a failed summarization the modifier drops the turns at
    /// once instead of asking the summarizer again for the same range.
    public var retryDelay: Duration
    /// Where summaries are kept between generations.
    public var store: SummaryStore
    /// Where the modifier remembers when the tools or the instructions changed.
    public var prefixBreaks: PrefixBreakLog

    /// Creates settings: 30 seconds for the summarizer, a minute before it is
    /// asked again after a failure, the shared store and log.
    public init(
      timeout: Duration = .seconds(30), retryDelay: Duration = .seconds(60), store: SummaryStore = .shared,
      prefixBreaks: PrefixBreakLog = .shared
    ) {
      self.timeout = timeout
      self.retryDelay = retryDelay
      self.store = store
      self.prefixBreaks = prefixBreaks
    }
  }

  /// The default text after a summary, which keeps the main model from
  /// mentioning the summary in its answers. (`summarizeHistory` uses the
  /// companion package's words instead, ``SummarizeHistory/defaultPostamble``.)
  public static let defaultPostamble = """
    The summary above stands in for the earlier part of this conversation. Continue the conversation \
    naturally: do not mention the summary, do not say that you are relying on one, and answer the \
    latest message directly.
    """

  /// The model that writes summaries; `nil` drops old turns instead (the
  /// same value as ``summarizer``, under the name the other modifiers use).
  public var model: (any LanguageModel)? { summarizer }

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
  ///   - options: the summarizer's timeout, retry delay and store.
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
    self.init(
      contextBudget: tokenBudget, target: target, summarizer: model, summaryReserve: summaryReserve,
      pinnedTokens: pinnedTokens,
      tokenCounter: tokenCounter ?? EstimatingTokenCounter(),
      summaryOptions: SummaryOptions(
        instructions: instructions, postamble: summaryPostamble, timeout: options.timeout,
        retryDelay: options.retryDelay, store: options.store), prefixBreaks: options.prefixBreaks)
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
