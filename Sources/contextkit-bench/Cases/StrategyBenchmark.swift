import AgentSkills
import CacheAnalysis
import CacheReport
import ContextKitDemo
import Foundation
import ModelSession
import Synchronization
import TestSupport

/// `contextkit-bench --strategies`: every history strategy over the seeded
/// corpus (and the demo scenarios), side by side: prompt-cache hit ratio at
/// block sizes 16 and 128, tokens re-processed, peak context, turns over
/// budget and summarizer calls, and how far each is from `compactingHistory`'s goal.
///
/// Also a timed case (`cache/strategies/compactingHistory`): one corpus
/// conversation played and analyzed under `compactingHistory`.
enum StrategyBenchmark {
  /// The corpus: 12 conversations of 20 to 400 turns, seed 2026.
  static func corpus(seed: UInt64) -> [ReplayConversation] {
    CorpusGenerator(seed: seed).corpus(count: 12, turns: 20...400)
  }

  /// The shipped skills, found from the working folder or from this source file.
  static func skills() throws -> [Skill] {
    var root = URL(fileURLWithPath: "SkillsLibrary", isDirectory: true)
    if !FileManager.default.fileExists(atPath: root.path) {
      root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SkillsLibrary")
    }
    return try SkillsLibrary(root: root).skills
  }

  /// Prints the comparison of `strategies` as a table, or as JSON; with
  /// `html`, also writes a page with the table and the charts of the longest conversation.
  static func report(seed: UInt64, strategies: [CompressionStrategy], json: Bool, html: String?) throws {
    let skills = try skills()
    let corpus = corpus(seed: seed)
    let longest = corpus.max { $0.turns.count < $1.turns.count }?.name
    let charts = ChartCollector()
    let comparison = try AsyncComparison.run(conversations: corpus, skills: skills, strategies: strategies) {
      run, reports in
      if html != nil, run.conversation == longest { charts.add(run, reports) }
    }
    if let html {
      var page = CacheReportPage(title: "ContextKit strategies on the seeded corpus (seed \(seed))")
      page.append(comparison.pageTable)
      page.append(.paragraph(comparison.verdict))
      for (run, reports) in charts.runs {
        let title = "\(run.conversation) — \(run.strategy.label)"
        page.append(
          .details(
            summary: title,
            blocks: CacheReportPage.analysisBlocks(of: reports, title: title, budget: run.budget),
            open: run.strategy == .compactingHistory || run.strategy == .baselineRollingWindow))
      }
      try FileWriter.write(Data(page.html.utf8), to: html, creatingFolders: true)
    }
    if json {
      print(try comparison.json())
      return
    }
    let turns = corpus.map(\.turns.count)
    print(
      "Corpus: \(corpus.count) conversations (seed \(seed)), \(turns.reduce(0, +)) turns "
        + "(\(turns.min() ?? 0) to \(turns.max() ?? 0) each), \(corpus.reduce(0) { $0 + $1.generationCount }) "
        + "generations, budget \(corpus.first?.budget ?? 0) tokens")
    print(comparison.table)
    print(comparison.verdict)
  }

  /// The timed case.
  static func timed() throws -> BenchmarkCase {
    let skills = try skills()
    let conversation = CorpusGenerator(seed: 2026).conversation(index: 0, turns: 100)
    return BenchmarkCase(
      name: "cache/strategies/compactingHistory-100-turns",
      run: {
        try AsyncComparison.run(
          conversations: [conversation], skills: skills, strategies: [.compactingHistory]
        )
        .results.count
      }, unit: BenchmarkUnit(name: "generation", countPerOperation: conversation.generationCount))
  }
}

/// Runs a comparison to completion from synchronous code.
private enum AsyncComparison {
  private final class Box: Sendable {
    let value = Mutex<StrategyComparison?>(nil)
  }

  static func run(
    conversations: [ReplayConversation], skills: [Skill],
    strategies: [CompressionStrategy] = CompressionStrategy.allCases,
    each: @escaping @Sendable (ScenarioRun, [CacheImpactReport]) -> Void = { _, _ in }
  ) throws -> StrategyComparison {
    let box = Box()
    _ = try AsyncBenchmarkRunner.run {
      let comparison = try await StrategyComparison.run(
        conversations: conversations, strategies: strategies, runner: ScenarioRunner(skills: skills),
        each: each)
      box.value.withLock { $0 = comparison }
      return comparison.results.count
    }
    guard let comparison = box.value.withLock({ $0 }) else { throw CancellationError() }
    return comparison
  }
}

/// Keeps the runs of one conversation for the page's charts.
private final class ChartCollector: Sendable {
  private let collected = Mutex<[(ScenarioRun, [CacheImpactReport])]>([])

  func add(_ run: ScenarioRun, _ reports: [CacheImpactReport]) {
    var kept = run
    kept.records = []
    collected.withLock { $0.append((kept, reports)) }
  }

  var runs: [(ScenarioRun, [CacheImpactReport])] { collected.withLock { $0 } }
}
