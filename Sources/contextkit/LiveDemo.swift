import ContextKit
import ContextKitDemo
import DemoSupport
import Foundation

/// `contextkit demo --endpoint URL --model NAME`: the coding-agent scenario's
/// 40 prompts against a live OpenAI-compatible server, once with the companion
/// package's rolling window (trimming every turn) and once with
/// `compactingHistory`, timing how long the server takes to start answering
/// each request (time to first token, which is mostly prompt processing).
///
/// The model's answers are its own, so the two runs do not see identical
/// histories; the prompts, instructions, budget and options are the same.
///
/// With ``countsHalf``, only `compactingHistory` runs, counting half of each
/// token estimate, so that its prompts outgrow the server's window: each
/// generation the session retried after the server refused it is listed
/// with its record's note.
struct LiveDemo {
  var endpoint: URL
  var model: String
  var budget: Int
  var maximumResponseTokens: Int
  var requestStyle: ChatCompletionsRequestStyle
  /// Whether to run the check of predicted against server-reported reuse
  /// (``LiveCacheCheck``) instead of the strategy comparison.
  var checksCache = false
  /// llama-cpp-python's log, where that server reports its reuse.
  var serverLog: URL?
  /// The skills for the check.
  var skills: [Skill] = []
  /// Whether `compactingHistory` counts half of each token estimate
  /// (`contextkit demo --count-half`), to show the session's recovery when the
  /// server refuses a prompt; the baseline is not run.
  var countsHalf = false

  /// What one strategy's run measured.
  struct Run {
    var strategy: CompressionStrategy
    var generations: Int
    var timeToFirstToken: Duration
    var summary: CacheImpactSummary
    var serverCachedTokens: Int
    /// The generations retried after the server refused them, from the records' notes.
    var recoveries: [RecoveredGeneration]
  }

  /// `--json`: each strategy's measurements.
  struct Output: Encodable {
    struct Strategy: Encodable {
      var strategy: String
      var generations: Int
      var timeToFirstTokenSeconds: Double
      var predictedHitRatio: Double
      var reprocessedTokenCount: Int
      var serverCachedTokenCount: Int
      var contextOverflowRecoveryCount: Int
      var contextOverflowRecoveries: [RecoveredGeneration]
    }

    var endpoint: String
    var model: String
    var budget: Int
    var countsHalf: Bool
    var strategies: [Strategy]
  }

  /// The scenario the live demo needs is missing from the bundle.
  struct MissingScenario: Error, CustomStringConvertible {
    var description: String { "no bundled scenario has 40 turns" }
  }

  /// The endpoint as printed: without the URL's password or secret query values.
  private var shownEndpoint: String {
    EndpointOption.shown(endpoint)
  }

  func run(json: Bool, console: Console) async throws -> ExitCode {
    guard let scenario = DemoScenarios.all().first(where: { $0.turns.count >= 40 }) else {
      throw MissingScenario()
    }
    let prompts = scenario.turns.prefix(40).map(\.prompt)
    let print = json ? console.printDiagnostic : console.print
    if checksCache {
      return try await checkCache(instructions: scenario.instructions, prompts: prompts, print: print)
    }
    print(
      "live demo: \(prompts.count) prompts of \(scenario.name) against \(shownEndpoint) (\(model)), "
        + "budget \(budget) tokens, answers of at most \(maximumResponseTokens) tokens"
        + (countsHalf ? ", token estimates counted half" : ""))
    var runs: [Run] = []
    let cpuBefore = ClientCPUTime.seconds()
    let strategies: [CompressionStrategy] =
      countsHalf ? [.compactingHistory] : [.baselineRollingWindow, .compactingHistory]
    for strategy in strategies {
      let measured = try await run(strategy, scenario: scenario, prompts: prompts)
      runs.append(measured)
      print(line(for: measured))
      for recovery in measured.recoveries { print("  recovered: " + recovery.line) }
    }
    print(
      String(
        format:
          "client CPU for %@: %.2f s (user and system; the transport sleeps while the server works)",
        runs.count == 1 ? "the run" : "both runs", ClientCPUTime.seconds() - cpuBefore))
    if runs.count == 2, seconds(runs[1].timeToFirstToken) > 0 {
      let baseline = seconds(runs[0].timeToFirstToken)
      let compacting = seconds(runs[1].timeToFirstToken)
      print(
        String(
          format: "time to first token, summed: baseline rolling window / compactingHistory = %.2fx",
          baseline / compacting))
    }
    if json {
      console.print(
        try JSONOutput.string(
          Output(
            endpoint: shownEndpoint, model: model, budget: budget, countsHalf: countsHalf,
            strategies: runs.map {
              Output.Strategy(
                strategy: $0.strategy.rawValue, generations: $0.generations,
                timeToFirstTokenSeconds: seconds($0.timeToFirstToken), predictedHitRatio: $0.summary.hitRatio,
                reprocessedTokenCount: $0.summary.reprocessedTokenCount,
                serverCachedTokenCount: $0.serverCachedTokens,
                contextOverflowRecoveryCount: $0.recoveries.count,
                contextOverflowRecoveries: $0.recoveries)
            })))
    }
    return .success
  }

  /// The 40 prompts under `compactingHistory` with the skills catalog, an
  /// instructions skill switched on at turn 10 and off at turn 25, and the
  /// predicted reuse of every generation next to the server's.
  private func checkCache(
    instructions: String, prompts: [String], print: (String) -> Void
  ) async throws -> ExitCode {
    let result = try await CacheCheckRun(
      endpoint: endpoint, model: model, budget: budget, maximumResponseTokens: maximumResponseTokens,
      requestStyle: requestStyle, serverLog: serverLog, skills: skills
    ).run(instructions: instructions, prompts: prompts)
    print("predicted against server-reported prefix reuse, token counts from the server's tokenizer:")
    print(result.table)
    print(result.summary.description)
    return .success
  }

  private func run(
    _ strategy: CompressionStrategy, scenario: ReplayConversation, prompts: [String]
  ) async throws -> Run {
    let languageModel = ChatCompletionsLanguageModel(
      name: model, baseURL: endpoint, timeout: 300, requestStyle: requestStyle)
    let profile = strategy.apply(
      to: Profile { Instructions(scenario.instructions) }, budget: budget, summarizer: languageModel,
      store: SummaryStore(),
      tokenCounter: countsHalf ? ScaledTokenCounter(EstimatingTokenCounter(), dividingBy: 2) : nil)
    let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: maximumResponseTokens)
    let clock = ContinuousClock()
    var waited = Duration.zero
    let recordStream: AsyncStream<GenerationRecord>
    do {
      let session = LanguageModelSession(model: languageModel, profile: profile)
      recordStream = session.generationRecords
      for prompt in prompts {
        let start = clock.now
        var first: ContinuousClock.Instant?
        let stream = session.streamResponse(to: prompt, options: options)
        for try await _ in stream where first == nil { first = clock.now }
        waited += (first ?? clock.now) - start
      }
    }
    // The session is gone, so the stream ends after the records it buffered.
    var collected: [GenerationRecord] = []
    for await record in recordStream { collected.append(record) }
    let reports = try await CacheImpactAnalyzer.reports(for: collected)
    return Run(
      strategy: strategy, generations: collected.count, timeToFirstToken: waited,
      summary: CacheImpactSummary(reports: reports),
      serverCachedTokens: collected.reduce(0) { $0 + ($1.usage.input.reportedCachedTokenCount ?? 0) },
      recoveries: RecoveredGeneration.all(in: collected, conversation: scenario.name, strategy: strategy))
  }

  private func line(for run: Run) -> String {
    String(
      format:
        "%@: %d generations, time to first token %.1f s in all, predicted prefix reuse %.1f%% (block 16), "
        + "%d tokens re-processed, server-reported cached tokens %d, %d context-overflow %@",
      run.strategy.rawValue, run.generations, seconds(run.timeToFirstToken), run.summary.hitRatio * 100,
      run.summary.reprocessedTokenCount, run.serverCachedTokens, run.recoveries.count,
      run.recoveries.count == 1 ? "recovery" : "recoveries")
  }

  private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
