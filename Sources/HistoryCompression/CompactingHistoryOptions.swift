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
}
