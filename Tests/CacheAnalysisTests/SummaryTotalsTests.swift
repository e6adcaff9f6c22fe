import CacheAnalysis
import Foundation
import ModelSession
import TestSupport
import Testing

@Suite("Cache impact summary totals", .timeLimit(.minutes(10))) struct SummaryTotalsTests {
  @Test func `the peak is the largest prompt, not the last one, and the totals add every generation`()
    async throws
  {
    // Word counts (one token a word): 10, then 10 + 5 + 15 = 30, then a compacted 10 + 8 = 18.
    let instructions = instructionsEntry(words(10, tag: "i"))
    let first = promptEntry(words(5, tag: "a"))
    let records = [
      record(sent: [instructions]),
      record(sent: [instructions, first, promptEntry(words(15, tag: "b"))]),
      record(sent: [instructions, promptEntry(words(8, tag: "c"))]),
    ]
    let summary = CacheImpactSummary(reports: try await reports(records))
    #expect(summary.generationCount == 3)
    #expect(summary.peakPromptTokenCount == 30)
    #expect(summary.promptTokenCount == 10 + 30 + 18)
  }

  @Test func `reports whose counts reach Int.max add up to Int.max instead of trapping`() {
    let huge = CacheImpactReport(
      requestID: UUID(), generationIndex: 0, turnIndex: 0, round: 0, promptTokenCount: .max,
      match: PrefixMatch(
        sharedBlockCount: 1, sharedTokenCount: .max, reusedTokenCount: .max, sourceDistance: 0),
      divergence: nil,
      cause: .init(kind: .historyRewritten, detail: "x"),
      serverUsage: .init(totalTokenCount: .max, cachedTokenCount: .max),
      serverComparison: ServerReuseComparison(
        predictedTokenCount: .max, reportedTokenCount: .max, predictedPromptTokenCount: .max,
        reportedPromptTokenCount: 1, tolerance: 16, cause: .agrees),
      completed: true)
    let summary = CacheImpactSummary(reports: [huge, huge, huge])
    #expect(summary.promptTokenCount == .max && summary.reusedTokenCount == .max)
    #expect(summary.serverInputTokenCount == 3 && summary.serverCachedInputTokenCount == .max)
    #expect(summary.predictedReusedTokenCountWhereReported == .max)
    // A share of Int.max / 3 is printed as the largest whole percent, not converted with a trap.
    #expect(summary.description.contains("(\(Int.max)%)"))
    #expect(huge.description.hasPrefix("#0 turn 0.0: \(Int.max)/\(Int.max) reused (100%)"))
  }
}
