import AgentSkills
import CacheAnalysis
import ContextKitDemo
import Foundation
import Testing

@Suite("Demo pipeline", .timeLimit(.minutes(20))) struct DemoPipelineTests {
  @Test func `the shipped skills load`() {
    #expect(shippedSkills.count == 9)
  }

  @Test func `its reports equal the offline analysis of the saved records`() async throws {
    let scenarios = DemoScenarios.all()
    let demo = try await DemoPipeline.run(
      skills: shippedSkills, scenarios: scenarios,
      strategies: [.baselineRollingWindow, .compactingHistory, .summarizeHistory])
    #expect(demo.runs.count == 9)
    for run in demo.runs {
      #expect(run.run.records.count == scenarios.first { $0.name == run.run.conversation }?.generationCount)
      let data = try JSONEncoder().encode(run.run.records)
      let saved = try CacheImpactAnalyzer.records(from: data, name: run.name)
      let offline = try await CacheImpactAnalyzer.reports(for: saved)
      #expect(offline == run.reports, "\(run.name)")
    }
  }

  @Test func `every scenario plays to the end under every strategy`() async throws {
    let demo = try await DemoPipeline.run(skills: shippedSkills)
    #expect(demo.runs.count == 3 * CompressionStrategy.allCases.count)
    for run in demo.runs {
      #expect(run.run.records.allSatisfy { $0.outcome == .completed }, "\(run.name)")
    }
    let text = try demo.text()
    #expect(text.contains("coding-agent: 40 turns"))
    #expect(text.contains("research-assistant: 30 turns"))
    let html = try demo.page().html
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(!html.contains("<script"))
  }

  @Test func `counting half, the recovery is counted per strategy and listed from the records' notes`()
    async throws
  {
    // ScenarioRunnerTests: the conversation is refused once, at turn 4, under compactingHistory.
    let demo = try await DemoPipeline.run(
      skills: [], scenarios: [halfCountedConversation],
      strategies: [.compactingHistory, .compactingHistorySummarized], countsHalf: true)
    let comparison = try demo.comparison()
    #expect(comparison.results.map(\.contextOverflowRecoveryCount) == [1, 1])
    #expect(comparison.results.map(\.turnsOverBudget) == [0, 0])
    #expect(demo.recoveries().map(\.strategy) == [.compactingHistory, .compactingHistorySummarized])
    #expect(demo.recoveries().map(\.turnIndex) == [4, 4])
    #expect(demo.recoveries(in: "half-counted") == demo.recoveries())
    #expect(demo.recoveries(in: "another").isEmpty)

    let plain = try await DemoPipeline.run(
      skills: [], scenarios: [halfCountedConversation], strategies: [.compactingHistory])
    #expect(try plain.comparison().results.map(\.contextOverflowRecoveryCount) == [0])
    #expect(plain.recoveries().isEmpty)
  }

  @Test func `a skill activation in a scenario reaches the session`() async throws {
    let scenario = try #require(DemoScenarios.all().first { $0.name == "coding-agent" })
    let run = try await ScenarioRunner(skills: shippedSkills).run(scenario, strategy: .none)
    let notes = run.records.flatMap(\.notes)
    #expect(notes.contains { $0.source == "skills" && $0.kind == .instructionsChanged })
    let outputs = run.records.last?.storedHistory.entries.filter {
      if case .toolOutput(let output) = $0 { output.toolName == CorpusGenerator.skillToolName } else { false }
    }
    #expect((outputs?.count ?? 0) >= 3)
  }
}
