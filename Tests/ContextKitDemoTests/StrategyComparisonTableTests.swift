import CacheAnalysis
import ContextKitDemo
import Foundation
import Testing

/// A result with the given counts (the rest 0 or empty).
private func result(
  _ strategy: CompressionStrategy, prompt: Int, reused16: Int, reused128: Int, floor: Int, visible: Double,
  peak: Int, over: Int, turns: Int, summarizerCalls: Int
) -> StrategyResult {
  StrategyResult(
    strategy: strategy, label: strategy.rawValue, conversationCount: 1, turnCount: turns,
    generationCount: turns, promptTokenCount: prompt, reusedTokenCount16: reused16,
    reusedTokenCount128: reused128, floorTokenCount: floor, visibleShareOfBudget: visible,
    peakContextTokenCount: peak, turnsOverBudget: over, invalidationCount: 0, summarizerCalls: summarizerCalls
  )
}

/// `compactingHistory` exactly on every bound of the goal: 1,196 of 1,300 tokens
/// reused (92%), 104 re-processed against a floor of 80 (1.3x), half the budget
/// visible, no turn over budget.
private let onTheGoal = result(
  .compactingHistory, prompt: 1_300, reused16: 1_196, reused128: 1_024, floor: 80, visible: 0.5, peak: 600,
  over: 0, turns: 10, summarizerCalls: 2)

/// Half of 1,000 tokens reused, 500 re-processed against a floor of 250, three turns over budget.
private let window = result(
  .rollingWindow, prompt: 1_000, reused16: 500, reused128: 384, floor: 250, visible: 0.8125, peak: 1_200,
  over: 3, turns: 10, summarizerCalls: 0)

@Suite("Strategy comparison table", .timeLimit(.minutes(10))) struct StrategyComparisonTableTests {
  @Test func `the goal is met exactly on its bounds, and the verdict says so`() throws {
    let comparison = StrategyComparison(conversations: ["one"], results: [onTheGoal, window])
    #expect(comparison.meetsGoal)
    #expect(
      comparison.verdict
        == "goal (\(StrategyComparison.goalText)): met — 0 turns over budget, 92.0% reused, 1.30x the floor, "
        + "50.0% visible")
    #expect(try comparison.json().contains(#""goalMet" : true"#))
  }

  @Test func `one turn over budget misses the goal, and the verdict says so`() throws {
    var over = onTheGoal
    over.turnsOverBudget = 1
    let comparison = StrategyComparison(conversations: ["one"], results: [window, over])
    #expect(!comparison.meetsGoal)
    #expect(
      comparison.verdict
        == "goal (\(StrategyComparison.goalText)): MISSED — 1 turn over budget, 92.0% reused, 1.30x the floor, "
        + "50.0% visible")
    #expect(try comparison.json().contains(#""goalMet" : false"#))
  }

  @Test func `the recoveries column sums the runs' recoveries from a context overflow`() throws {
    let runs = [1, 0, 2].map {
      StrategyComparison.AnalyzedRun(
        budget: 1_000, summarizerCalls: 0, floorTokenCount: 0, reports: [], recoveryCount: $0)
    }
    let summed = try StrategyComparison.result(for: .compactingHistory, label: "c", runs: runs)
    #expect(summed.contextOverflowRecoveryCount == 3)
    let comparison = StrategyComparison(conversations: ["one"], results: [summed, window])
    let column = try #require(StrategyComparison.headings.firstIndex(of: "recoveries"))
    #expect(comparison.rows.map { $0[column] } == ["3", "0"])
    #expect(StrategyComparison.numericColumns.contains(column))
    #expect(try comparison.json().contains(#""contextOverflowRecoveryCount" : 3"#))
  }

  @Test func `without compactingHistory the verdict says it was not run`() {
    let comparison = StrategyComparison(conversations: ["one"], results: [window])
    #expect(comparison.verdict == "compactingHistory was not run.")
  }

  @Test
  func `the distance column: points from compactingHistory's hit ratio, and the extra turns over budget`() {
    // 95% against 92%: 3 points better, and no more turns over budget than the reference.
    let better = result(
      .none, prompt: 1_000, reused16: 950, reused128: 0, floor: 50, visible: 0.5, peak: 1_000, over: 0,
      turns: 10, summarizerCalls: 0)
    let comparison = StrategyComparison(conversations: ["one"], results: [onTheGoal, window, better])
    #expect(comparison.distance(of: onTheGoal) == "(reference)")
    #expect(comparison.distance(of: window) == "-42.0 pts, +3 over")
    #expect(comparison.distance(of: better) == "+3.0 pts")
  }

  @Test func `the table: numbers right-aligned, the reference row last column, rounding half up`() {
    // 78.8 = 1,024 / 1,300; 81.3 = 0.8125 rounded half up; 2.00 = 500 / 250.
    let comparison = StrategyComparison(conversations: ["one"], results: [onTheGoal, window])
    let expected = [
      "strategy           hit % (16)  hit % (128)  re-processed  x floor  visible % of budget  peak context  "
        + "turns over budget  summarizer calls  recoveries  vs compactingHistory",
      "-----------------  ----------  -----------  ------------  -------  -------------------  ------------  "
        + "-----------------  ----------------  ----------  --------------------",
      "compactingHistory        92.0         78.8           104     1.30                 50.0           600  "
        + "             0/10                 2           0  (reference)",
      "rollingWindow            50.0         38.4           500     2.00                 81.3          1200  "
        + "             3/10                 0           0  -42.0 pts, +3 over",
    ]
    #expect(comparison.table.split(separator: "\n").map(String.init) == expected)
  }

  @Test
  func `a strategy's result sums its runs, counts turns once and averages the visible share per generation`()
    throws
  {
    // Run A (budget 1,000): turn 0 in two rounds (400, then 500 reusing 400), turn 1 in two
    // rounds both over budget (1,100 reusing 288 after a rewrite, then 1,150 reusing 1,100).
    // Run B (budget 2,000): one turn of 1,000 tokens.
    var a1 = report(1, prompt: 500, reused: 400)
    a1.turnIndex = 0
    a1.round = 1
    var a2 = report(2, prompt: 1_100, reused: 288, cause: CacheImpactCause(kind: .historyRewritten))
    a2.turnIndex = 1
    a2.match.sharedTokenCount = 300
    var a3 = report(3, prompt: 1_150, reused: 1_100)
    a3.turnIndex = 1
    a3.round = 1
    let runA = StrategyComparison.AnalyzedRun(
      budget: 1_000, summarizerCalls: 1, floorTokenCount: 300,
      reports: [report(0, prompt: 400, reused: 0, cause: CacheImpactCause(kind: .coldStart)), a1, a2, a3])
    let runB = StrategyComparison.AnalyzedRun(
      budget: 2_000, summarizerCalls: 2, floorTokenCount: 100,
      reports: [report(0, prompt: 1_000, reused: 0, cause: CacheImpactCause(kind: .coldStart))])
    let result = try StrategyComparison.result(for: .none, label: "none", runs: [runA, runB])
    #expect(result.conversationCount == 2)
    #expect(result.generationCount == 5)
    #expect(result.turnCount == 3)
    #expect(result.turnsOverBudget == 1)
    #expect(result.promptTokenCount == 4_150)
    #expect(result.reusedTokenCount16 == 1_788)
    // Blocks of 128 of the shared prefixes 0, 400, 300, 1,100 and 0: 0 + 384 + 256 + 1,024 + 0.
    #expect(result.reusedTokenCount128 == 1_664)
    #expect(result.floorTokenCount == 400)
    #expect(result.peakContextTokenCount == 1_150)
    #expect(result.invalidationCount == 1)
    #expect(result.summarizerCalls == 3)
    // (0.4 + 0.5 + 1.1 + 1.15 + 0.5) / 5 generations.
    #expect(abs(result.visibleShareOfBudget - 0.73) < 1e-9)
  }
}
