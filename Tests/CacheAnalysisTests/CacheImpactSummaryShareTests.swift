import CacheAnalysis
import Testing

@Suite(.timeLimit(.minutes(10))) struct `Cache impact summary shares` {
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
