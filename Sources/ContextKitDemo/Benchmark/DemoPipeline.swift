import AgentSkills
import CacheAnalysis
import DemoSupport
import ModelSession

/// What `contextkit demo` does, as a library call: plays every scenario under
/// every strategy through a real session, analyzes each run's records, and
/// keeps records and reports for the tables, the HTML page and saving.
///
/// ```swift
/// let demo = try await DemoPipeline.run(skills: library.skills)
/// print(demo.text)
/// ```
package enum DemoPipeline {
  /// Plays `scenarios` under `strategies`; with `countsHalf`, driven into
  /// the model's refusals (see ``ScenarioRunner/countsHalf``).
  package static func run(
    skills: [Skill], scenarios: [ReplayConversation] = DemoScenarios.all(),
    strategies: [CompressionStrategy] = CompressionStrategy.allCases,
    model: PromptCacheModel = PromptCacheModel(), countsHalf: Bool = false
  ) async throws -> DemoResult {
    let runner = ScenarioRunner(skills: skills, countsHalf: countsHalf)
    var runs: [DemoResult.Run] = []
    for scenario in scenarios {
      for strategy in strategies {
        let run = try await runner.run(scenario, strategy: strategy)
        let reports = try await CacheImpactAnalyzer.reports(for: run.records, model: model)
        let floor = try await ReprocessingFloor.newTokenCounts(of: run.records).reduce(0, +)
        runs.append(DemoResult.Run(run: run, reports: reports, floorTokenCount: floor))
      }
    }
    return DemoResult(scenarios: scenarios, strategies: strategies, runs: runs)
  }
}
