import CacheAnalysis
import ContextKitDemo
import Foundation
import TestSupport
import Testing

/// Scenario `a` (two turns, the first in two generations) and `b` (one turn), both with a
/// budget of 1,000, under compactingHistory and rollingWindow; `none` is listed without runs.
private let twoScenarios: DemoResult = {
  let answer = ReplayGeneration.answer("ok")
  let a = ReplayConversation(
    name: "a", instructions: "", budget: 1_000, tools: [], usesSkills: false,
    turns: [
      ReplayTurn(prompt: "one", generations: [answer, answer]),
      ReplayTurn(prompt: "two", generations: [answer]),
    ])
  let b = ReplayConversation(
    name: "b", instructions: "", budget: 1_000, tools: [], usesSkills: false,
    turns: [ReplayTurn(prompt: "one", generations: [answer])])
  func run(
    _ scenario: String, _ strategy: CompressionStrategy, _ reports: [CacheImpactReport]
  ) -> DemoResult.Run {
    DemoResult.Run(
      run: ScenarioRun(
        conversation: scenario, strategy: strategy, budget: 1_000, records: [], summarizerCalls: 0),
      reports: reports, floorTokenCount: 100)
  }
  return DemoResult(
    scenarios: [a, b], strategies: [.compactingHistory, .rollingWindow, .none],
    runs: [
      run("a", .compactingHistory, [report(0, prompt: 100, reused: 0), report(1, prompt: 200, reused: 100)]),
      run("a", .rollingWindow, [report(0, prompt: 100, reused: 0)]),
      run("b", .compactingHistory, [report(0, prompt: 400, reused: 400)]),
      run("b", .rollingWindow, [report(0, prompt: 400, reused: 200)]),
    ])
}()

@Suite("Demo result text", .timeLimit(.minutes(10))) struct DemoResultTextTests {
  @Test func `each scenario's table holds its own runs only, the first table all of them`() throws {
    // a: 100 of 300 and 0 of 100 reused; b: 400 of 400 and 200 of 400; together 500 of 700 and 200 of 500.
    #expect(try twoScenarios.comparison().rows.map { $0[1] } == ["71.4", "40.0", "0.0"])
    #expect(try twoScenarios.comparison(for: "a").rows.map { $0[1] } == ["33.3", "0.0", "0.0"])
    #expect(try twoScenarios.comparison(for: "b").rows.map { $0[1] } == ["100.0", "50.0", "0.0"])
    #expect(try twoScenarios.comparison(for: "b").conversations == ["b"])
    #expect(try twoScenarios.comparison().conversations == ["a", "b"])
  }

  @Test func `the text's heading and each scenario's line: turns, generations, budget`() throws {
    let lines = try twoScenarios.text().split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    #expect(
      lines.first
        == "All 2 scenarios, 3 strategies (prompt-cache model: prefix match, blocks of 16 and 128 tokens)")
    #expect(lines.contains("a: 2 turns, 3 generations, budget 1000 tokens"))
    #expect(lines.contains("b: 1 turns, 1 generations, budget 1000 tokens"))
  }

  @Test
  func `a scenario with recoveries lists them under its table, one line each, in the text and the page`()
    async throws
  {
    let demo = try await DemoPipeline.run(
      skills: [], scenarios: [halfCountedConversation], strategies: [.compactingHistory], countsHalf: true)
    let line =
      "compactingHistory, generation 4 (turn 4.0): the model refused a prompt of 124 tokens for a window of "
      + "100 tokens (replay model: maximum context length is 100 tokens, the prompt has 124); compacted the "
      + "history and retried once"
    let text = try demo.text()
    #expect(
      text.hasSuffix(
        "\n\nrecovered from a context overflow (the records' contextOverflowRecovered notes):\n  " + line))
    #expect(try demo.page().html.contains("<p>" + line + "</p>"))
    #expect(try !twoScenarios.text().contains("recovered from a context overflow"))
  }

  @Test func `the page shows compactingHistory's charts open and folds the others`() throws {
    let html = try twoScenarios.page().html
    #expect(html.contains("<details open><summary>a — compactingHistory(tokenBudget:)</summary>"))
    #expect(html.contains("<details><summary>a — rollingWindow(.tokens(budget))</summary>"))
    #expect(html.contains("<h2>a: 2 turns, 3 generations, budget 1000 tokens</h2>"))
  }
}
