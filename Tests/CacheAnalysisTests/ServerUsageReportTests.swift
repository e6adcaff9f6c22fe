import CacheAnalysis
import Foundation
import ModelSession
import TestSupport
import Testing

@Suite("Server usage in reports", .timeLimit(.minutes(10))) struct ServerUsageReportTests {
  @Test func `a record without a reported prompt count has no server usage; one with a count has it`()
    async throws
  {
    let sent = [instructionsEntry("You help."), promptEntry("one")]
    let unreported = record(sent: sent)
    var reported = record(sent: sent + [responseEntry("1"), promptEntry("two")], turn: 1)
    reported.usage = GenerationUsage(input: .init(totalTokenCount: 9, reportedCachedTokenCount: 3))
    let analyzed = try await reports([unreported, reported])
    #expect(analyzed[0].serverUsage == nil)
    #expect(analyzed[1].serverUsage == CacheImpactReport.ServerUsage(totalTokenCount: 9, cachedTokenCount: 3))
  }
}
