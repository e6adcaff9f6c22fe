import ModelSession

// The spellings of CompactingHistory from before the history modifiers shared
// one vocabulary (sizes, then `model`, `tokenCounter`, `instructions`,
// `summaryPostamble`, `options`). They forward to the current spelling and
// are deprecated; code written against them keeps compiling.

extension CompactingHistory {
  /// The summarizer's settings, in the earlier spelling: the instructions and
  /// postamble are now parameters of their own, the rest is ``Options``.
  @available(*, deprecated, message: "pass instructions:, summaryPostamble: and options: instead")
  public struct SummaryOptions: Sendable {
    /// The summarizer's instructions.
    public var instructions: Instructions
    /// The text placed after the summary, for the main model.
    public var postamble: String
    /// How long the summarizer may take before the modifier drops the turns instead.
    public var timeout: Duration
    /// How long after a failed summarization the modifier drops the turns at
    /// once instead of asking the summarizer again for the same range.
    public var retryDelay: Duration
    /// Where summaries are kept between generations.
    public var store: SummaryStore

    /// Creates settings with the defaults of ``CompactingHistory``.
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

  /// The model that writes summaries (``model``, in the earlier spelling).
  @available(*, deprecated, renamed: "model")
  public var summarizer: (any LanguageModel)? { model }

  /// The budget in tokens or as a share of the window (``tokenBudget``, in the earlier spelling).
  @available(*, deprecated, renamed: "tokenBudget")
  public var contextBudget: ContextBudget { tokenBudget }

  /// Where the modifier remembers prefix changes (`options.prefixBreaks`, in the earlier spelling).
  @available(*, deprecated, message: "use options.prefixBreaks")
  public var prefixBreaks: PrefixBreakLog { options.prefixBreaks }

  /// The summarizer's settings, in the earlier spelling.
  @available(*, deprecated, message: "use instructions, summaryPostamble and options")
  public var summaryOptions: SummaryOptions {
    SummaryOptions(
      instructions: instructions, postamble: summaryPostamble, timeout: options.timeout,
      retryDelay: options.retryDelay, store: options.store)
  }

  /// Creates the modifier (the earlier spelling of the initializer that
  /// takes `tokenBudget:` as a number of tokens).
  @available(
    *, deprecated,
    message:
      "use init(tokenBudget:target:summaryReserve:pinnedTokens:model:tokenCounter:instructions:summaryPostamble:options:)"
  )
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

  /// Creates the modifier with a budget in tokens or as a share of the window
  /// (the earlier spelling of the initializer that takes a ``ContextBudget``).
  @available(
    *, deprecated,
    message:
      "use init(tokenBudget:target:summaryReserve:pinnedTokens:model:tokenCounter:instructions:summaryPostamble:options:)"
  )
  public init(
    contextBudget: ContextBudget, target: ContextBudget? = nil, summarizer: (any LanguageModel)? = nil,
    summaryReserve: Int? = nil, pinnedTokens: Int? = nil,
    tokenCounter: any TokenCounter = EstimatingTokenCounter(),
    summaryOptions: SummaryOptions = SummaryOptions(), prefixBreaks: PrefixBreakLog = .shared
  ) {
    self.init(
      tokenBudget: contextBudget, target: target, summaryReserve: summaryReserve, pinnedTokens: pinnedTokens,
      model: summarizer, tokenCounter: tokenCounter, instructions: summaryOptions.instructions,
      summaryPostamble: summaryOptions.postamble,
      options: Options(
        timeout: summaryOptions.timeout, retryDelay: summaryOptions.retryDelay, store: summaryOptions.store,
        prefixBreaks: prefixBreaks))
  }
}

extension DynamicProfile {
  /// Keeps the history within `budget` tokens (the earlier spelling of
  /// `compactingHistory(tokenBudget:...)`, see ``CompactingHistory``).
  @available(
    *, deprecated,
    message:
      "use compactingHistory(tokenBudget:target:summaryReserve:pinnedTokens:model:tokenCounter:instructions:summaryPostamble:options:)"
  )
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
