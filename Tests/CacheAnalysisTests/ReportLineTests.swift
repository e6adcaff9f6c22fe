import CacheAnalysis
import Foundation
import Testing

/// The one-line texts a log shows for a report, its divergence and a server comparison,
/// written out by hand.
@Suite("A report's line", .timeLimit(.minutes(10))) struct ReportLineTests {
  private func comparison(
    reported: Int, predicted: Int, cause: ServerReuseComparison.Cause
  )
    -> ServerReuseComparison
  {
    ServerReuseComparison(
      predictedTokenCount: predicted, reportedTokenCount: reported, predictedPromptTokenCount: 900,
      reportedPromptTokenCount: 910, tolerance: 16, cause: cause)
  }

  @Test func `a divergence names its block, where that block is, and the tokens before it`() {
    let divergence = CacheImpactReport.Divergence(
      blockIndex: 3, location: .entry(index: 4, kind: "prompt"), tokenOffset: 120)
    #expect(divergence.description == "block 3, entry 4 (prompt), after 120 tokens")
  }

  @Test func `a changed block's reused start, exact or estimated, and why the server reused more of it`() {
    #expect(
      ChangedBlockStart(tokenCount: 551, sharedByteCount: 2_210, isEstimate: false).description
        == "551 tokens")
    #expect(
      ChangedBlockStart(tokenCount: 548, sharedByteCount: 2_210, isEstimate: true).description
        == "~548 tokens (estimated)")
    #expect(
      comparison(reported: 940, predicted: 900, cause: .sharedBlockStart).explanation
        == "the server reused more of the changed block than the predicted unchanged start: "
        + "count with the server's tokenizer")
  }

  @Test func `a server comparison signs a difference only when the server reused more`() {
    #expect(
      comparison(reported: 812, predicted: 900, cause: .cacheCleared).description
        == "reported 812, predicted 900 (-88): cacheCleared")
    #expect(
      comparison(reported: 912, predicted: 900, cause: .agrees).description
        == "reported 912, predicted 900 (+12): agrees")
    #expect(
      comparison(reported: 900, predicted: 900, cause: .agrees).description
        == "reported 900, predicted 900 (0): agrees")
  }

  @Test func `a report reads as index, turn, reuse, divergence, cause and the server's figures`() {
    let report = CacheImpactReport(
      requestID: UUID(), generationIndex: 3, turnIndex: 1, round: 0, promptTokenCount: 900,
      match: PrefixMatch(
        sharedBlockCount: 50, sharedTokenCount: 812, reusedTokenCount: 800, sourceDistance: 1),
      divergence: CacheImpactReport.Divergence(blockIndex: 2, location: .instructions, tokenOffset: 800),
      cause: CacheImpactCause(kind: .instructionsChanged, source: "skills", detail: "activated tone"),
      serverUsage: CacheImpactReport.ServerUsage(totalTokenCount: 910, cachedTokenCount: 700),
      serverComparison: comparison(reported: 700, predicted: 800, cause: .shorterPrefix))
    // 800 of 900 is 88.9%, shown rounded to a whole percent.
    #expect(
      report.description
        == "#3 turn 1.0: 800/900 reused (89%), diverged at block 2, instructions, after 800 tokens: "
        + "instructionsChanged(skills): activated tone [server: 700/910 cached, -100 vs predicted: shorterPrefix]"
    )
    let unfinished = CacheImpactReport(
      requestID: UUID(), generationIndex: 0, turnIndex: 0, round: 1, promptTokenCount: 40,
      match: PrefixMatch(sharedBlockCount: 0, sharedTokenCount: 0, reusedTokenCount: 0, sourceDistance: nil),
      divergence: nil, cause: CacheImpactCause(kind: .coldStart), serverUsage: nil, completed: false)
    #expect(
      unfinished.description == "#0 turn 0.1: 0/40 reused (0%): coldStart (the generation did not complete)")
  }
}
