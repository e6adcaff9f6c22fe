import CacheAnalysis
import ChatCompletions
import ContextKitDemo
import Foundation
import LocalServerSupport
import Testing

/// The real local model server of `scripts/local-model`, when `CONTEXTKIT_TEST_ENDPOINT` names it.
private let localEndpoint: URL? = ProcessInfo.processInfo.environment["CONTEXTKIT_TEST_ENDPOINT"]
  .flatMap { $0.isEmpty ? nil : URL(string: $0) }

/// Its verbose log (`scripts/local-model log`; scripts/test exports it as `CONTEXTKIT_TEST_SERVER_LOG`).
private let localServerLog: URL? = ProcessInfo.processInfo.environment["CONTEXTKIT_TEST_SERVER_LOG"]
  .flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }

@Suite(
  .serialized, .timeLimit(.minutes(20)), .holding(.standardWindow),
  .enabled(
    if: localEndpoint != nil && localServerLog != nil,
    "CONTEXTKIT_TEST_ENDPOINT or CONTEXTKIT_TEST_SERVER_LOG is not set: the live cache check is skipped"))
struct LiveCacheCheckLocalServerTests {
  /// The coding-agent scenario's 40 prompts under `compactingHistory` with
  /// the shipped skills (an instructions skill switched on at turn 10 and off
  /// at turn 25), against llama-cpp-python: ContextKit's predicted prefix
  /// reuse, counted with the server's tokenizer, against the server's own
  /// prefix-match figures from its log.
  @Test func `predicted prefix reuse is within 0.5% of what the real server reused, and 4 tokens each`()
    async throws
  {
    let endpoint = try #require(localEndpoint)
    let log = try #require(localServerLog)
    let scenario = try #require(DemoScenarios.all().first { $0.turns.count >= 40 })
    let model = ChatCompletionsLanguageModel(
      name: "smollm2", baseURL: endpoint, timeout: 300, requestStyle: .llamaCppPython)
    // Short answers keep the run to a few minutes on two cores; the prompts
    // (instructions, skills catalog, history) are the scenario's.
    let check = LiveCacheCheck(
      model: model, instructions: scenario.instructions, skills: shippedSkills,
      skillSwitches: [10: ("writing-commit-messages", true), 25: ("writing-commit-messages", false)],
      budget: 2_000, maximumResponseTokens: 24, serverLog: log, templateRendersTools: false)
    let result = try await check.run(prompts: scenario.turns.prefix(40).map(\.prompt))
    print(result.table)

    #expect(result.reports.count >= 40)
    // The scenario did what it says: two instructions switches and compaction.
    let kinds = result.reports.map(\.cause.kind)
    #expect(kinds.filter { $0 == .instructionsChanged }.count == 2)
    #expect(kinds.contains(.historyRewritten))
    // Requests of other clients (tests running in parallel) make some
    // generations incomparable; most must still be compared.
    let summary = result.summary
    #expect(summary.serverReportedGenerationCount >= 20, "compared: \(summary.serverReportedGenerationCount)")
    #expect(summary.serverCachedInputTokenCount > 0)
    let error = try #require(summary.predictionError)
    #expect(abs(error) <= 0.005, "prediction \(error * 100)% of the server's")
    #expect(result.unexplainedGenerations.isEmpty, "unexplained: \(result.unexplainedGenerations)")
    // Per generation, not only summed, and the instructions switches too:
    // the changed instructions' common token prefix with the cached ones is
    // counted with the server's tokenizer. What is left is a few tokens of
    // template per message (see docs/cache.md).
    let perGenerationBound = 4
    for report in result.reports where !result.interleavedGenerations.contains(report.generationIndex) {
      guard let comparison = report.serverComparison, let server = report.serverUsage else { continue }
      let promptDifference = server.totalTokenCount - report.promptTokenCount
      #expect(
        abs(promptDifference) <= perGenerationBound,
        "#\(report.generationIndex): the server counts \(server.totalTokenCount) prompt tokens, the prediction \(report.promptTokenCount)"
      )
      #expect(abs(comparison.difference) <= perGenerationBound, "#\(report.generationIndex): \(comparison)")
    }
    #expect(result.meetsGoal(within: 0.005))
  }
}
