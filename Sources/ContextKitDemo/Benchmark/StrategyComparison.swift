import CacheAnalysis
import DemoSupport
import Foundation
import ModelSession

/// The strategies side by side over the same conversations, and how far
/// each is from the goal that `compactingHistory` is held to: every turn
/// within budget, at least 92% of prompt tokens reused with blocks of 16,
/// at most 1.3 times the floor of new tokens re-processed, and on average at
/// least half of the budget visible.
///
/// ```swift
/// let comparison = try await StrategyComparison.run(
///   conversations: CorpusGenerator(seed: 2026).corpus(), runner: runner)
/// print(comparison.table)
/// ```
package struct StrategyComparison: Sendable, Codable {
  /// The share of prompt tokens a strategy should reuse with blocks of 16 tokens.
  package static let goalHitRatio = 0.92
  /// The most tokens a strategy should re-process per genuinely new token.
  package static let goalReprocessedPerFloorToken = 1.3
  /// The least share of the budget a strategy should keep visible, on average.
  package static let goalVisibleShare = 0.5
  /// The goal in words.
  package static let goalText =
    "compactingHistory: 0 turns over budget, >= 92% reused at block size 16, <= 1.3x the floor re-processed, "
    + ">= 50% of the budget visible on average"

  /// The conversations compared, by name.
  package var conversations: [String]
  /// One result per strategy, in the order run.
  package var results: [StrategyResult]

  /// Creates a comparison from results.
  package init(conversations: [String], results: [StrategyResult]) {
    self.conversations = conversations
    self.results = results
  }

  /// Plays every conversation under every strategy and compares them.
  ///
  /// - Parameter each: called with every run, after it is analyzed (to keep records or reports).
  package static func run(
    conversations: [ReplayConversation], strategies: [CompressionStrategy] = CompressionStrategy.allCases,
    runner: ScenarioRunner,
    each: (ScenarioRun, [CacheImpactReport]) throws -> Void = { _, _ in }
  ) async throws -> StrategyComparison {
    var results: [StrategyResult] = []
    for strategy in strategies {
      var runs: [AnalyzedRun] = []
      for conversation in conversations {
        let run = try await runner.run(conversation, strategy: strategy)
        let reports = try await CacheImpactAnalyzer.reports(for: run.records)
        let floor = try await ReprocessingFloor.newTokenCounts(of: run.records).reduce(0, +)
        try each(run, reports)
        // The records are let go here: only the reports are kept.
        runs.append(
          AnalyzedRun(
            budget: run.budget, summarizerCalls: run.summarizerCalls, floorTokenCount: floor,
            reports: reports,
            recoveryCount: run.recoveries.count))
      }
      results.append(try result(for: strategy, label: strategy.label, runs: runs))
    }
    return StrategyComparison(conversations: conversations.map(\.name), results: results)
  }

  /// What the comparison keeps of a run: its budget, its summarizer calls,
  /// its floor of new tokens, its reports and its recoveries from a context overflow.
  package struct AnalyzedRun: Sendable {
    /// The conversation's budget in tokens.
    package var budget: Int
    /// The summarizer's calls.
    package var summarizerCalls: Int
    /// The genuinely new prompt tokens of the run (see ``ReprocessingFloor``).
    package var floorTokenCount: Int
    /// The reports, analyzed with blocks of 16 tokens and a look-back of 1.
    package var reports: [CacheImpactReport]
    /// The generations the session retried after a context-size refusal (``ScenarioRun/recoveries``).
    package var recoveryCount: Int

    /// Creates an analyzed run.
    package init(
      budget: Int, summarizerCalls: Int, floorTokenCount: Int, reports: [CacheImpactReport],
      recoveryCount: Int = 0
    ) {
      self.budget = budget
      self.summarizerCalls = summarizerCalls
      self.floorTokenCount = floorTokenCount
      self.reports = reports
      self.recoveryCount = recoveryCount
    }
  }

  /// The result of one strategy over analyzed runs. The reuse with blocks of
  /// 128 tokens comes from the same reports' shared prefixes (exact for a
  /// look-back of 1: the shared prefix does not depend on the block size).
  package static func result(
    for strategy: CompressionStrategy, label: String, runs: [AnalyzedRun]
  ) throws -> StrategyResult {
    let large = try PromptCacheModel(blockSize: 128)
    var prompt = 0
    var reused16 = 0
    var reused128 = 0
    var peak = 0
    var over = 0
    var turns = 0
    var generations = 0
    var invalidations = 0
    var summarizerCalls = 0
    var recoveries = 0
    var floor = 0
    var visibleShares = 0.0
    for run in runs {
      let reports = run.reports
      generations += reports.count
      summarizerCalls += run.summarizerCalls
      recoveries += run.recoveryCount
      floor += run.floorTokenCount
      turns += Set(reports.map(\.turnIndex)).count
      over += Set(reports.filter { $0.promptTokenCount > run.budget }.map(\.turnIndex)).count
      invalidations += reports.filter(\.cause.isInvalidation).count
      for report in reports {
        prompt += report.promptTokenCount
        reused16 += report.reusedTokenCount
        reused128 += large.reusable(report.match.sharedTokenCount)
        peak = max(peak, report.promptTokenCount)
        if run.budget > 0 { visibleShares += Double(report.promptTokenCount) / Double(run.budget) }
      }
    }
    return StrategyResult(
      strategy: strategy, label: label, conversationCount: runs.count, turnCount: turns,
      generationCount: generations, promptTokenCount: prompt, reusedTokenCount16: reused16,
      reusedTokenCount128: reused128, floorTokenCount: floor,
      visibleShareOfBudget: generations > 0 ? visibleShares / Double(generations) : 0,
      peakContextTokenCount: peak, turnsOverBudget: over,
      invalidationCount: invalidations, summarizerCalls: summarizerCalls,
      contextOverflowRecoveryCount: recoveries)
  }

  /// The result of `compactingHistory`, when it was run.
  package var goalResult: StrategyResult? { results.first { $0.strategy == .compactingHistory } }

  /// Whether `compactingHistory` met the goal (see ``goalText``).
  package var meetsGoal: Bool {
    guard let goal = goalResult else { return false }
    return goal.turnsOverBudget == 0 && goal.hitRatio16 >= Self.goalHitRatio
      && goal.reprocessedPerFloorToken <= Self.goalReprocessedPerFloorToken
      && goal.visibleShareOfBudget >= Self.goalVisibleShare
  }

  /// How far `result` is from `compactingHistory`: the hit ratio in points, and the turns over budget.
  package func distance(of result: StrategyResult) -> String {
    guard let goal = goalResult else { return "" }
    if result.strategy == .compactingHistory { return "(reference)" }
    let points = (result.hitRatio16 - goal.hitRatio16) * 100
    var parts = [String(format: "%+.1f pts", points)]
    if result.turnsOverBudget > goal.turnsOverBudget {
      parts.append("+\(result.turnsOverBudget - goal.turnsOverBudget) over")
    }
    return parts.joined(separator: ", ")
  }

  /// The comparison as pretty-printed JSON, with the goal's verdict.
  package func json() throws -> String {
    struct Document: Encodable {
      var goal: String
      var goalMet: Bool
      var conversations: [String]
      var results: [StrategyResult]
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let document = Document(
      goal: Self.goalText,
      goalMet: meetsGoal, conversations: conversations, results: results)
    return String(decoding: try encoder.encode(document), as: UTF8.self)
  }
}
