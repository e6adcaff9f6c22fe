import CacheAnalysis
import CacheReport
import DemoSupport
import ModelSession

/// The demo's runs, each with its records and reports, and the comparisons,
/// text and HTML page made from them.
package struct DemoResult: Sendable {
  /// One scenario under one strategy.
  package struct Run: Sendable {
    /// The run, with its records.
    package var run: ScenarioRun
    /// Its reports, in order.
    package var reports: [CacheImpactReport]
    /// The genuinely new prompt tokens of the run (see ``ReprocessingFloor``).
    package var floorTokenCount: Int

    /// Creates a run.
    package init(run: ScenarioRun, reports: [CacheImpactReport], floorTokenCount: Int) {
      self.run = run
      self.reports = reports
      self.floorTokenCount = floorTokenCount
    }

    /// `coding-agent.compactingHistory`: the name its records are saved under.
    package var name: String { "\(run.conversation).\(run.strategy.rawValue)" }
  }

  /// The scenarios played.
  package var scenarios: [ReplayConversation]
  /// The strategies, in order.
  package var strategies: [CompressionStrategy]
  /// Every run, scenario by scenario, strategies in order.
  package var runs: [Run]

  /// Creates a result.
  package init(scenarios: [ReplayConversation], strategies: [CompressionStrategy], runs: [Run]) {
    self.scenarios = scenarios
    self.strategies = strategies
    self.runs = runs
  }

  /// The strategies compared over the scenario named `scenario`, or over all of them when `nil`.
  package func comparison(for scenario: String? = nil) throws -> StrategyComparison {
    var results: [StrategyResult] = []
    let selected = runs.filter { scenario == nil || $0.run.conversation == scenario }
    for strategy in strategies {
      let analyzed = selected.filter { $0.run.strategy == strategy }.map {
        StrategyComparison.AnalyzedRun(
          budget: $0.run.budget, summarizerCalls: $0.run.summarizerCalls, floorTokenCount: $0.floorTokenCount,
          reports: $0.reports, recoveryCount: $0.run.recoveries.count)
      }
      results.append(
        try StrategyComparison.result(
          for: strategy, label: strategy.label,
          runs: analyzed))
    }
    return StrategyComparison(
      conversations: scenario.map { [$0] } ?? scenarios.map(\.name), results: results)
  }

  /// The generations of the scenario named `scenario` (of every scenario
  /// when `nil`) that the session retried after the model refused them, run
  /// by run.
  package func recoveries(in scenario: String? = nil) -> [RecoveredGeneration] {
    runs.filter { scenario == nil || $0.run.conversation == scenario }.flatMap(\.run.recoveries)
  }

  /// The heading of the recovery lines.
  package static let recoveriesHeading =
    "recovered from a context overflow (the records' contextOverflowRecovered notes):"

  /// One line about a scenario: `coding-agent: 40 turns, budget 12000 tokens`.
  package static func describe(_ scenario: ReplayConversation) -> String {
    "\(scenario.name): \(scenario.turns.count) turns, \(scenario.generationCount) generations, "
      + "budget \(scenario.budget) tokens"
  }

  /// The tables for a terminal: all scenarios together, then each one.
  package func text() throws -> String {
    var sections = [
      "All \(scenarios.count) scenarios, \(strategies.count) strategies "
        + "(prompt-cache model: prefix match, blocks of 16 and 128 tokens)",
      try comparison().table,
    ]
    for scenario in scenarios {
      sections.append("")
      sections.append(Self.describe(scenario))
      sections.append(try comparison(for: scenario.name).table)
      let recoveries = recoveries(in: scenario.name)
      if !recoveries.isEmpty {
        sections.append("")
        sections.append(Self.recoveriesHeading)
        sections += recoveries.map { "  " + $0.line }
      }
    }
    return sections.joined(separator: "\n")
  }

  /// The HTML page: the tables, then each scenario's charts (the baseline
  /// rolling window and `compactingHistory` open, the others folded).
  package func page() throws -> CacheReportPage {
    var page = CacheReportPage(title: "ContextKit demo: the prompt cache under each history strategy")
    page.append(
      .paragraph(
        "Each scenario is replayed offline through a real LanguageModelSession, with the skills of "
          + "SkillsLibrary/ and recorded model answers, once per strategy. For every generation the prompt-cache "
          + "model predicts how many prompt tokens a server with a prefix cache (blocks of 16 tokens, like vLLM) "
          + "reuses from the previous request and its output; orange is what it must process again."))
    page.append(.heading("All scenarios"))
    let overall = try comparison()
    page.append(overall.pageTable)
    for scenario in scenarios {
      page.append(.heading(Self.describe(scenario)))
      page.append(try comparison(for: scenario.name).pageTable)
      let recoveries = recoveries(in: scenario.name)
      if !recoveries.isEmpty {
        page.append(.paragraph(Self.recoveriesHeading))
        for recovery in recoveries { page.append(.paragraph(recovery.line)) }
      }
      for run in runs where run.run.conversation == scenario.name {
        let strategy = run.run.strategy
        let title = "\(scenario.name) — \(strategy.label)"
        page.append(
          .details(
            summary: title,
            blocks: CacheReportPage.analysisBlocks(of: run.reports, title: title, budget: scenario.budget),
            open: strategy == .compactingHistory || strategy == .baselineRollingWindow))
      }
    }
    return page
  }
}
