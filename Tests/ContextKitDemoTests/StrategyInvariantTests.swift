import CacheAnalysis
import ContextKitDemo
import Foundation
import Testing

@Suite("Strategy invariants", .timeLimit(.minutes(20))) struct StrategyInvariantTests {
  @Test(arguments: [UInt64(3), 17, 101])
  func `compactingHistory never goes over budget on corpus conversations`(seed: UInt64) async throws {
    let corpus = CorpusGenerator(seed: seed).corpus(count: 2, turns: 20...90)
    let comparison = try await StrategyComparison.run(
      conversations: corpus,
      strategies: [.compactingHistory, .compactingHistorySummarized, .rollingWindow, .baselineRollingWindow],
      runner: ScenarioRunner(skills: shippedSkills))
    let results = Dictionary(uniqueKeysWithValues: comparison.results.map { ($0.strategy, $0) })
    let compacting = try #require(results[.compactingHistory])
    #expect(compacting.turnsOverBudget == 0)
    #expect(compacting.peakContextTokenCount <= corpus[0].budget)
    #expect(results[.compactingHistorySummarized]?.turnsOverBudget == 0)
    #expect(results[.rollingWindow]?.turnsOverBudget == 0)
    // Trimming every turn costs the cache; compacting in large steps keeps it.
    #expect(compacting.hitRatio16 > (results[.rollingWindow]?.hitRatio16 ?? 1))
    #expect(compacting.hitRatio16 > (results[.baselineRollingWindow]?.hitRatio16 ?? 1))
  }

  @Test func `the summarizing baseline calls its summarizer on every prompt past the threshold`() async throws
  {
    let conversation = CorpusGenerator(seed: 5).conversation(index: 0, turns: 40)
    let runner = ScenarioRunner(skills: shippedSkills)
    let baseline = try await runner.run(conversation, strategy: .baselineSummarize)
    let contextKit = try await runner.run(conversation, strategy: .summarizeHistory)
    let promptsPastThreshold = baseline.records.filter {
      $0.round == 0 && $0.storedHistory.entries.count > CompressionStrategy.baselineEntryCount
    }.count
    #expect(baseline.summarizerCalls == promptsPastThreshold)
    #expect(contextKit.summarizerCalls < baseline.summarizerCalls)
  }

  @Test func `the results add up`() throws {
    let large = try PromptCacheModel(blockSize: 128)
    #expect(large.reusable(300) == 256)
    let result = StrategyResult(
      strategy: .none, label: "none", conversationCount: 1, turnCount: 4, generationCount: 5,
      promptTokenCount: 1_000, reusedTokenCount16: 900, reusedTokenCount128: 768, floorTokenCount: 80,
      visibleShareOfBudget: 0.625, peakContextTokenCount: 400, turnsOverBudget: 1, invalidationCount: 0,
      summarizerCalls: 0)
    #expect(result.reprocessedTokenCount == 100)
    #expect(result.reprocessedPerFloorToken == 1.25)
    #expect(result.hitRatio16 == 0.9)
    #expect(result.hitRatio128 == 0.768)
    let comparison = StrategyComparison(conversations: ["one"], results: [result])
    #expect(!comparison.meetsGoal)
    // No compactingHistory row to compare with: the last column is empty.
    #expect(
      comparison.rows.first == ["none", "90.0", "76.8", "100", "1.25", "62.5", "400", "1/4", "0", "0", ""])
    let json = try comparison.json()
    #expect(json.contains(#""goalMet" : false"#))
    #expect(json.contains(#""reusedTokenCount16" : 900"#))
  }

  @Test func `a turn whose prompt exactly fills the budget is within it`() throws {
    // Budget 400: turn 0 sends exactly 400 tokens (within), turn 1 sends 401 (over).
    // Two turns, one of them over.
    func report(turn: Int, tokens: Int) -> CacheImpactReport {
      CacheImpactReport(
        requestID: UUID(), generationIndex: turn, turnIndex: turn, round: 0, promptTokenCount: tokens,
        match: .none, divergence: nil, cause: .appendOnly, serverUsage: nil)
    }
    let run = StrategyComparison.AnalyzedRun(
      budget: 400, summarizerCalls: 0, floorTokenCount: 0,
      reports: [report(turn: 0, tokens: 400), report(turn: 1, tokens: 401)])
    let result = try StrategyComparison.result(for: .none, label: "none", runs: [run])
    #expect(result.turnCount == 2)
    #expect(result.turnsOverBudget == 1)
  }
}
