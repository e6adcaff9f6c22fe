import ModelSession

extension SummarizeHistory {
  /// The settings of a ``SummarizeHistory`` modifier beyond its threshold and summarizer.
  ///
  /// ```swift
  /// SummarizeHistory.Options(retainedFraction: 0.4, timeout: .seconds(10))
  /// ```
  public struct Options: Sendable {
    /// The size a compaction brings the history down to, as a fraction of
    /// the threshold (rounded down); in (0, 1). The smaller it is, the more each
    /// compaction summarizes and the longer the prefix stays stable.
    public var retainedFraction: Double
    /// How long the summarizer may take before the modifier falls back to a rolling window.
    public var timeout: Duration
    /// How long after a failed summarization the modifier falls back at
    /// once instead of asking the summarizer again for the same range.
    public var retryDelay: Duration
    /// The counter of the earlier spelling `Options(tokenCounter:)`, used when
    /// the modifier is given no `tokenCounter` of its own.
    var earlierTokenCounter: (any TokenCounter)?
    /// Where summaries are kept between generations.
    public var store: SummaryStore
    /// Where the modifier remembers when the tools or the instructions
    /// changed, to say again what it put back after the cut when they do.
    public var prefixBreaks: PrefixBreakLog

    /// Creates options; the defaults compact down to half the threshold,
    /// give the summarizer 30 seconds, wait a minute before asking again
    /// after a failure, and use the shared store and log. The token counter is
    /// the modifier's own (`SummarizeHistory(threshold:model:tokenCounter:…)`),
    /// as it is for the other history modifiers.
    public init(
      retainedFraction: Double = 0.5, timeout: Duration = .seconds(30), retryDelay: Duration = .seconds(60),
      store: SummaryStore = .shared, prefixBreaks: PrefixBreakLog = .shared
    ) {
      self.retainedFraction = retainedFraction
      self.timeout = timeout
      self.retryDelay = retryDelay
      self.store = store
      self.prefixBreaks = prefixBreaks
    }

    /// Creates options that carry a token counter (the earlier spelling); a
    /// setting left `nil` has the default of
    /// ``init(retainedFraction:timeout:retryDelay:store:prefixBreaks:)``.
    @available(
      *, deprecated, message: "pass tokenCounter: to the modifier, as for rollingWindow and compactingHistory"
    )
    public init(
      retainedFraction: Double? = nil, timeout: Duration? = nil, retryDelay: Duration? = nil,
      tokenCounter: any TokenCounter, store: SummaryStore = .shared, prefixBreaks: PrefixBreakLog = .shared
    ) {
      self.init(store: store, prefixBreaks: prefixBreaks)
      if let retainedFraction { self.retainedFraction = retainedFraction }
      if let timeout { self.timeout = timeout }
      if let retryDelay { self.retryDelay = retryDelay }
      earlierTokenCounter = tokenCounter
    }

    /// What counts tokens when the modifier is given no counter of its own (the earlier spelling).
    @available(*, deprecated, message: "read the modifier's tokenCounter")
    public var tokenCounter: any TokenCounter {
      get { earlierTokenCounter ?? EstimatingTokenCounter() }
      set { earlierTokenCounter = newValue }
    }
  }

  /// The summarizer's default instructions.
  public static let defaultInstructions = Instructions(
    """
    You condense conversations between a user and an assistant so that the assistant can continue \
    them without the full text. Write one short summary in plain prose: the user's goals and \
    preferences, facts and numbers that were established, decisions made, results of tool calls that \
    still matter, and questions still open. When you are given an earlier summary, merge it with the \
    new part into a single summary; do not summarize the summary. Do not add a preamble or a closing \
    remark.
    """)

  /// The default text after the summary, which keeps the main model from
  /// mentioning the summary in its answers: the companion package's words,
  /// so that an app's prompts read the same after porting.
  public static let defaultPostamble = """
    Do not begin with phrases like "Based on the context", "Based on the facts", "Based on the summary", \
    or any reference to a summary or the facts provided. Treat the summary and facts above as things you \
    naturally remember.
    """
}
