import Foundation
import HistoryCompression
import ModelSession
import TestSupport

/// Benchmark cases for the history modifiers, for a benchmark harness to run.
///
/// Each case measures one generation's worth of work on a synthetic
/// conversation of a given length, in the steady state of a live session:
/// token counts are cached and the summary of the compacted range is already
/// kept, as they are after the first generation. Beside them, a case
/// measures encoding the same transcript to JSON once (the cost of just
/// looking at it), the yardstick the modifiers should stay under.
///
/// ```swift
/// for benchmark in HistoryCompressionBenchmarks.cases() {
///   try await benchmark.prepare()
///   let start = ContinuousClock.now
///   try await benchmark.run()
///   print(benchmark.name, ContinuousClock.now - start)
/// }
/// ```
enum HistoryCompressionBenchmarks {
  /// One benchmark: a name, a preparation that warms caches, and the work to time.
  struct Case: Sendable {
    /// What is measured, such as `chain/10000`.
    let name: String
    /// The number of entries in the transcript.
    let entryCount: Int
    /// Warms the caches; run it once, untimed, before timing `run`.
    let prepare: @Sendable () async throws -> Void
    /// One generation's work.
    let run: @Sendable () async throws -> Void
  }

  /// The cases for each size: token counting with a warm cache and without
  /// one, each modifier alone, the three in a chain (dropping tool calls, then
  /// summarizing, then a window), and JSON encoding.
  static func cases(entryCounts: [Int] = [100, 1_000, 10_000, 100_000]) -> [Case] {
    entryCounts.flatMap { count -> [Case] in
      let transcript = syntheticTranscript(entryCount: count)
      let counter = EstimatingTokenCounter(cache: TokenCountCache(capacity: max(1, count)))
      let store = SummaryStore()
      let summarize = SummarizeHistory(
        threshold: .tokens(8_000), model: InstantSummarizerModel(), tokenCounter: counter,
        options: .init(store: store))
      let stages: [(String, [any DynamicProfileModifier])] = [
        ("droppingCompletedToolCalls", [DroppingCompletedToolCalls()]),
        ("rollingWindow", [RollingWindow(.tokens(8_000), tokenCounter: counter)]),
        ("summarizeHistory", [summarize]),
        (
          "chain",
          [DroppingCompletedToolCalls(), summarize, RollingWindow(.tokens(16_000), tokenCounter: counter)]
        ),
      ]
      let entries = transcript.entries
      let countWarm: @Sendable () async throws -> Void = { _ = counter.tokenCounts(of: entries) }
      let countCold: @Sendable () async throws -> Void = {
        _ = EstimatingTokenCounter(cache: TokenCountCache()).tokenCounts(of: entries)
      }
      var cases = [
        Case(name: "tokenCounts/cached/\(count)", entryCount: count, prepare: countWarm, run: countWarm),
        Case(name: "tokenCounts/uncached/\(count)", entryCount: count, prepare: {}, run: countCold),
      ]
      cases += stages.map { name, modifiers in
        let run: @Sendable () async throws -> Void = { _ = try await apply(modifiers, to: transcript) }
        return Case(name: "\(name)/\(count)", entryCount: count, prepare: run, run: run)
      }
      let encode: @Sendable () async throws -> Void = { _ = try transcript.jsonData() }
      cases.append(Case(name: "jsonEncode/\(count)", entryCount: count, prepare: {}, run: encode))
      return cases
    }
  }

  /// Runs `modifiers` in order on `transcript`, as a session would for one generation.
  static func apply(
    _ modifiers: [any DynamicProfileModifier], to transcript: Transcript
  ) async throws -> Transcript {
    let context = ProfileModifierContext(turnIndex: 0, round: 0, toolDefinitions: [], requestID: "benchmark")
    var history = transcript
    for modifier in modifiers {
      history = try await modifier.transformHistory(history, in: context)
    }
    return history
  }

  /// A deterministic conversation of about `entryCount` entries: instructions,
  /// then turns of a prompt, sometimes reasoning, every third turn two
  /// parallel tool calls with their outputs, and a response; it ends with a prompt.
  static func syntheticTranscript(entryCount: Int) -> Transcript {
    func text(_ id: String, _ length: Int) -> [Transcript.Segment] {
      [
        .text(
          Transcript.TextSegment(id: id + "-text", content: String(repeating: "lorem ", count: length / 6)))
      ]
    }
    var entries: [Transcript.Entry] = [
      .instructions(
        Transcript.Instructions(
          id: "instructions", segments: text("instructions", 1_200), toolDefinitions: []))
    ]
    var turn = 0
    while entries.count < entryCount - 1 {
      entries.append(.prompt(Transcript.Prompt(id: "p\(turn)", segments: text("p\(turn)", 200))))
      if turn % 4 == 1 {
        entries.append(.reasoning(Transcript.Reasoning(id: "z\(turn)", segments: text("z\(turn)", 300))))
      }
      if turn % 3 == 0 {
        let calls = (0..<2).map { index in
          Transcript.ToolCall(
            id: "c\(turn)-\(index)", toolName: "search",
            arguments: GeneratedContent(
              kind: .structure(
                properties: ["query": GeneratedContent(kind: .string("query \(turn) \(index)"))],
                orderedKeys: ["query"])))
        }
        entries.append(.toolCalls(Transcript.ToolCalls(id: "t\(turn)", calls)))
        for call in calls {
          entries.append(
            .toolOutput(Transcript.ToolOutput(id: call.id, toolName: "search", segments: text(call.id, 400))))
        }
      }
      entries.append(
        .response(Transcript.Response(id: "r\(turn)", assetIDs: [], segments: text("r\(turn)", 600))))
      turn += 1
    }
    entries.append(.prompt(Transcript.Prompt(id: "p\(turn)", segments: text("p\(turn)", 200))))
    return Transcript(entries: entries)
  }
}
