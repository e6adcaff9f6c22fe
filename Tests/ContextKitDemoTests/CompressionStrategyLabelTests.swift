import ContextKitDemo
import Testing

/// The labels in the demo's tables and page titles are the strategies as
/// written in code (the calls a reader can paste), with the budget as a word.
@Suite("Compression strategy labels", .timeLimit(.minutes(10))) struct CompressionStrategyLabelTests {
  @Test func `each label is the strategy as written in code`() {
    let labels = CompressionStrategy.allCases.map { "\($0): \($0.label)" }
    #expect(
      labels == [
        "none: no compression",
        "baselineRollingWindow: baseline rollingWindow(entries: 24)",
        "baselineSummarize: baseline summarizeHistory(entryThreshold: 24)",
        "rollingWindow: rollingWindow(.tokens(budget))",
        "summarizeHistory: summarizeHistory(threshold: .tokens(budget))",
        "compactingHistory: compactingHistory(tokenBudget:)",
        "compactingHistorySummarized: compactingHistory(tokenBudget:model:)",
      ])
  }
}
