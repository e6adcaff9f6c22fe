import ModelSession
import TestSupport
import Testing

@testable import HistoryCompression

/// `compactingHistory`'s defaults (derived from the budget, and depending on
/// whether a summarizer is given) and the bounds of its settings, each checked
/// on both sides.
@Suite("Compacting history settings", .timeLimit(.minutes(10))) struct CompactingHistorySettingsTests {
  private let history = Transcript(entries: [Make.instructions(), Make.prompt("p1"), Make.response("r1")])

  private func failure(_ modifier: CompactingHistory) async -> String? {
    let error = await #expect(throws: HistoryCompressionError.self) {
      try await modifier.transformHistory(history, in: Make.context())
    }
    return error?.description
  }

  private func passes(_ modifier: CompactingHistory) async throws {
    let result = try await modifier.transformHistory(history, in: Make.context())
    #expect(result == history)
  }

  @Test func `the defaults follow the budget: three eighths, then a quarter and five eighths of that`() {
    // 1,000 × 3 / 8 = 375; 375 / 4 = 93.75 → 93; 375 × 5 / 8 = 234.375 → 234.
    let dropping = CompactingHistory(
      tokenBudget: 1_000, options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog()))
    #expect(dropping.target == 375)
    #expect(dropping.summaryReserve == 93)
    #expect(dropping.pinnedTokens == 234)
    // A summarizer keeps the oldest turns in its summary instead: nothing is pinned.
    let summarizing = CompactingHistory(
      tokenBudget: 1_000, model: ScriptedLanguageModel(script: ModelScript([])),
      options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog()))
    #expect(summarizing.target == 375)
    #expect(summarizing.summaryReserve == 93)
    #expect(summarizing.pinnedTokens == 0)
    // Given values are kept as given.
    let given = CompactingHistory(tokenBudget: 1_000, target: 500, summaryReserve: 10, pinnedTokens: 7)
    #expect((given.target, given.summaryReserve, given.pinnedTokens) == (500, 10, 7))
  }

  @Test func `the summarizer's settings default to those of summarizeHistory: 30 seconds, then a minute`() {
    let modifier = CompactingHistory(
      tokenBudget: 1_000, options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog()))
    #expect(modifier.options.timeout == .seconds(30))
    #expect(modifier.options.retryDelay == .seconds(60))
    #expect(modifier.summaryPostamble == CompactingHistory.defaultPostamble)
    #expect(modifier.instructions.text == SummarizeHistory.defaultInstructions.text)
    // The spelling of the other modifiers, with its own Options, has the same defaults.
    let vocabulary = CompactingHistory.Options()
    #expect(vocabulary.timeout == .seconds(30))
    #expect(vocabulary.retryDelay == .seconds(60))
    #expect(vocabulary.store === SummaryStore.shared)
    #expect(vocabulary.prefixBreaks === PrefixBreakLog.shared)
    let spelled = CompactingHistory(tokenBudget: 1_000)
    #expect(spelled.options.timeout == .seconds(30))
    #expect(spelled.options.retryDelay == .seconds(60))
  }

  @Test func `the options' store, prefix-break log and retry delay are the ones the compaction uses`() throws
  {
    let store = SummaryStore()
    let log = PrefixBreakLog()
    let modifier = CompactingHistory(
      tokenBudget: 1_000, model: ScriptedLanguageModel(script: ModelScript([])),
      options: CompactingHistory.Options(
        timeout: .seconds(9), retryDelay: .seconds(7), store: store, prefixBreaks: log))
    let policy = modifier.policy(
      CompactionLimits(budget: 1_000, target: 375, summaryReserve: 93, pinnedTokens: 0))
    #expect(policy.prefixBreaks === log)
    guard case .summarize(let summaries) = policy.summary else {
      Issue.record("a modifier with a model summarizes")
      return
    }
    #expect(summaries.store === store)
    #expect(summaries.retryDelay == .seconds(7))
    #expect(summaries.timeout == .seconds(9))
  }

  @Test func `a budget at the ends of Int is refused by its size, never trapped on`() async throws {
    // `budget * 3 / 8` trapped for Int.max before; 2^53 is the largest size taken.
    for budget in [Int.max, Int.min, (1 << 53) + 1] {
      let modifier = CompactingHistory(
        tokenBudget: budget, options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog()))
      let message = await failure(modifier)
      #expect(
        message?.hasPrefix("compactingHistory: the size .tokens(\(budget)) ") == true, "\(message ?? "")")
    }
    #expect(
      await failure(
        CompactingHistory(
          tokenBudget: .max, options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog())))
        == "compactingHistory: the size .tokens(9223372036854775807) is more than 9007199254740992 (2^53), "
        + "the largest count ContextKit takes")
    try await passes(
      CompactingHistory(
        tokenBudget: 1 << 53, options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog())))
  }

  @Test func `the target must stay below the budget`() async throws {
    #expect(
      await failure(
        CompactingHistory(
          tokenBudget: 100, target: 100, options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog())))
        == "compactingHistory: target / budget is 1.0, it must be in (0, 1)")
    try await passes(
      CompactingHistory(
        tokenBudget: 100, target: 99, pinnedTokens: 0,
        options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog())))
  }

  @Test func `the pinned tokens must be at least 0 and below the target`() async throws {
    // 40 / 40 = 1.0; -4 / 40 = -0.1.
    #expect(
      await failure(
        CompactingHistory(
          tokenBudget: 100, target: 40, pinnedTokens: 40,
          options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog())))
        == "compactingHistory: pinnedTokens / target is 1.0, it must be in [0, 1)")
    #expect(
      await failure(
        CompactingHistory(
          tokenBudget: 100, target: 40, pinnedTokens: -4,
          options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog())))
        == "compactingHistory: pinnedTokens / target is -0.1, it must be in [0, 1)")
    try await passes(
      CompactingHistory(
        tokenBudget: 100, target: 40, pinnedTokens: 39,
        options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog())))
    try await passes(
      CompactingHistory(
        tokenBudget: 100, target: 40, pinnedTokens: 0,
        options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog())))
  }

  @Test func `the summary reserve must be below the target, and is not checked without a summarizer`()
    async throws
  {
    let summarizer = ScriptedLanguageModel(script: ModelScript([]))
    // 40 / 40 = 1.0; -8 / 40 = -0.2.
    #expect(
      await failure(
        CompactingHistory(
          tokenBudget: 100, target: 40, summaryReserve: 40, model: summarizer,
          options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog()))
      )
        == "compactingHistory: summaryReserve / target is 1.0, it must be in [0, 1)")
    #expect(
      await failure(
        CompactingHistory(
          tokenBudget: 100, target: 40, summaryReserve: -8, model: summarizer,
          options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog()))
      )
        == "compactingHistory: summaryReserve / target is -0.2, it must be in [0, 1)")
    try await passes(
      CompactingHistory(
        tokenBudget: 100, target: 40, summaryReserve: 39, model: summarizer,
        options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog())))
    try await passes(
      CompactingHistory(
        tokenBudget: 100, target: 40, summaryReserve: 40, pinnedTokens: 0,
        options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog())))
  }

  @Test func `the summarizer timeout must be more than zero, and is not checked without a summarizer`()
    async throws
  {
    let summarizer = ScriptedLanguageModel(script: ModelScript([]))
    func modifier(_ timeout: Duration, summarizer: (any LanguageModel)?) -> CompactingHistory {
      CompactingHistory(
        tokenBudget: 100, target: 40, summaryReserve: 10, pinnedTokens: 0, model: summarizer,
        options: CompactingHistory.Options(timeout: timeout, prefixBreaks: PrefixBreakLog()))
    }
    #expect(
      await failure(modifier(.zero, summarizer: summarizer))
        == "compactingHistory: the summarizer timeout is 0.0 seconds, it must be more than zero")
    #expect(
      await failure(modifier(.seconds(-1), summarizer: summarizer))
        == "compactingHistory: the summarizer timeout is -1.0 seconds, it must be more than zero")
    try await passes(modifier(.nanoseconds(1), summarizer: summarizer))
    try await passes(modifier(.zero, summarizer: nil))
  }
}
