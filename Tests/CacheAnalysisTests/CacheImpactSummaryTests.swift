import CacheAnalysis
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct CacheImpactSummaryTests {
  @Suite("Cache impact summary shares") struct Shares {
    @Test func `no prompt tokens is a hit ratio of 0, and no server figures are no server ratio`() {
      let summary = CacheImpactSummary(reports: [])
      #expect(summary.hitRatio == 0)
      #expect(summary.serverHitRatio == nil)
      #expect(summary.predictionError == nil)
      #expect(summary.description == "0 generations, 0 prompt tokens, 0 reused (0%), 0 re-processed")
    }

    @Test func `a server that reported no cached tokens has a ratio of 0 but no prediction error`() {
      var summary = CacheImpactSummary(reports: [])
      summary.serverInputTokenCount = 1_000
      summary.serverCachedInputTokenCount = 0
      summary.serverReportedGenerationCount = 2
      summary.predictedReusedTokenCountWhereReported = 300
      #expect(summary.serverHitRatio == 0)
      #expect(summary.predictionError == nil)
      #expect(
        summary.description.contains("server: 0/1000 cached (0%) over 2 generations; predicted 300 there"))
    }

    @Test func `the shares are exact fractions, shown as whole percents rounded to the nearest`() {
      var summary = CacheImpactSummary(reports: [])
      summary.generationCount = 1
      // 1 of 8 prompt tokens: 0.125, 12.5% shown as 13%.
      summary.promptTokenCount = 8
      summary.reusedTokenCount = 1
      summary.reprocessedTokenCount = 7
      // The server: 100 of 400 cached (25%); 97 predicted there, (97 - 100) / 100 = -3%.
      summary.serverInputTokenCount = 400
      summary.serverCachedInputTokenCount = 100
      summary.serverReportedGenerationCount = 1
      summary.predictedReusedTokenCountWhereReported = 97
      #expect(summary.hitRatio == 0.125)
      #expect(summary.serverHitRatio == 0.25)
      #expect(summary.predictionError == -0.03)
      #expect(
        summary.description
          == "1 generations, 8 prompt tokens, 1 reused (13%), 7 re-processed\n"
          + "server: 100/400 cached (25%) over 1 generations; predicted 97 there (-3.0%)")
    }
  }

  @Suite("Cache impact summary order") struct Order {
    private func report(_ index: Int, prompt: Int, reused: Int, cause: CacheImpactCause) -> CacheImpactReport
    {
      CacheImpactReport(
        requestID: UUID(), generationIndex: index, turnIndex: index, round: 0, promptTokenCount: prompt,
        match: PrefixMatch(
          sharedBlockCount: 0, sharedTokenCount: reused, reusedTokenCount: reused, sourceDistance: nil),
        divergence: nil, cause: cause, serverUsage: nil)
    }

    @Test func `causes that re-processed as many tokens are listed alphabetically`() {
      // Each re-processes 100 - 40 = 60 tokens; given in reverse alphabetical order.
      let summary = CacheImpactSummary(reports: [
        report(0, prompt: 100, reused: 40, cause: CacheImpactCause(kind: .toolsChanged)),
        report(1, prompt: 100, reused: 40, cause: CacheImpactCause(kind: .instructionsChanged)),
      ])
      #expect(summary.invalidations.map(\.cause) == ["instructionsChanged", "toolsChanged"])
      #expect(
        summary.description
          == "2 generations, 200 prompt tokens, 80 reused (40%), 120 re-processed\n"
          + "  instructionsChanged: 1×, 60 tokens re-processed\n"
          + "  toolsChanged: 1×, 60 tokens re-processed")
    }

    @Test func `the cause that re-processed the most tokens comes first, however few times it happened`() {
      // instructionsChanged twice, 50 - 40 = 10 tokens each: 20 in all;
      // toolsChanged once, 100 - 10 = 90 tokens. By tokens, toolsChanged leads,
      // though it happened less often and sorts later by name.
      let summary = CacheImpactSummary(reports: [
        report(0, prompt: 50, reused: 40, cause: CacheImpactCause(kind: .instructionsChanged)),
        report(1, prompt: 100, reused: 10, cause: CacheImpactCause(kind: .toolsChanged)),
        report(2, prompt: 50, reused: 40, cause: CacheImpactCause(kind: .instructionsChanged)),
      ])
      #expect(
        summary.invalidations == [
          .init(cause: "toolsChanged", count: 1, reprocessedTokenCount: 90),
          .init(cause: "instructionsChanged", count: 2, reprocessedTokenCount: 20),
        ])
    }

    @Test func `server comparison causes with the same count are listed alphabetically`() {
      var summary = CacheImpactSummary(reports: [])
      summary.serverInputTokenCount = 400
      summary.serverCachedInputTokenCount = 100
      summary.serverReportedGenerationCount = 2
      summary.predictedReusedTokenCountWhereReported = 100
      summary.serverComparisonCauses = ["zzz": 1, "aaa": 1]
      // 100 / 400 = 25%; the prediction equals the server's: +0.0%.
      #expect(
        summary.description
          == "0 generations, 0 prompt tokens, 0 reused (0%), 0 re-processed\n"
          + "server: 100/400 cached (25%) over 2 generations; predicted 100 there (+0.0%)\n"
          + "  server reused a different amount: aaa 1×\n"
          + "  server reused a different amount: zzz 1×")
    }
  }
}
