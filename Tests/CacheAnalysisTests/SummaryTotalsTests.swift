import CacheAnalysis
import Foundation
import ModelSession
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct `Cache impact summary totals` {
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
}
