import CacheAnalysis
import Foundation
import Testing

@testable import ContextKitDemo

@Suite(.timeLimit(.minutes(10))) struct `Live cache check table` {
  @Test func `a server that did not say what it cached shows a question mark, not 0`() throws {
    var unreported = report(0, prompt: 100, reused: 80)
    unreported.serverUsage = CacheImpactReport.ServerUsage(totalTokenCount: 120, cachedTokenCount: nil)
    let result = LiveCacheCheck.Result(reports: [unreported], interleavedGenerations: [])
    let row = try #require(
      result.table.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        .first { $0.first == "0" })
    // #, turn 0.0, predicted 100 and 80, the server's 120 and "?" cached, no difference,
    // "server did not say", and the prediction's cause.
    #expect(row == ["0", "0.0", "100", "80", "120", "?", "server", "did", "not", "say", "appendOnly"])
  }
}
