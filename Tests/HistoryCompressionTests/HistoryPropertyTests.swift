import Foundation
import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// One random case: a transcript, and a pipeline of modifiers with random settings.
struct PropertyCase {
  enum Step: CustomStringConvertible {
    case dropping
    case window(HistorySize)
    case summarize(HistorySize, fails: Bool)
    case compacting(budget: Int)

    var description: String {
      switch self {
      case .dropping: "droppingCompletedToolCalls()"
      case .compacting(let budget): "compactingHistory(tokenBudget: \(budget))"
      case .window(let size): "rollingWindow(\(size))"
      case .summarize(let size, let fails):
        "summarizeHistory(threshold: \(size))\(fails ? " [failing summarizer]" : "")"
      }
    }
  }

  /// Every modifier alone, every modifier at every position of a pipeline of
  /// all four, and compactingHistory (3) in each pipeline of more than one
  /// modifier, at every position.
  static let pipelines: [[Int]] = [
    [0], [1], [2], [3], [3, 0, 1, 2], [0, 3, 2, 1], [1, 0, 3, 2], [1, 2, 0, 3], [2, 3, 0, 1],
    [3, 2, 1, 0], [2, 1, 3, 0], [0, 3], [3, 1], [2, 3],
  ]

  let seed: UInt64
  let transcript: Transcript
  let steps: [Step]

  init(seed: UInt64) {
    self.seed = seed
    var generator = TranscriptGenerator(seed: seed)
    let transcript = generator.transcript(length: generator.length(maximum: 1_980))
    // Sizes up to a bit more than the whole transcript (entries average under 80 estimated tokens).
    let entryCount = transcript.count
    func size() -> HistorySize {
      generator.chance(percent: 50)
        ? .entries(generator.integer(in: 1...max(1, entryCount * 6 / 5)))
        : .tokens(generator.integer(in: 1...max(1, entryCount * 80)))
    }
    self.transcript = transcript
    let pipeline = Self.pipelines[Int(seed % UInt64(Self.pipelines.count))]
    steps = pipeline.map { kind in
      switch kind {
      case 0: .dropping
      case 1: .window(size())
      case 2: .summarize(size(), fails: generator.chance(percent: 20))
      default: .compacting(budget: generator.integer(in: 8...max(8, entryCount * 80)))
      }
    }
  }

  /// Runs the pipeline (the steps in order, as the session would run them) and returns what is wrong.
  func problems() async throws -> [String] {
    let counter = EstimatingTokenCounter(cache: TokenCountCache())
    let store = SummaryStore()
    let stored = transcript
    var history = transcript
    var problems: [String] = []
    for step in steps {
      let context = Make.context()
      let input = history.entries
      let output: Transcript
      switch step {
      case .dropping:
        output = try await DroppingCompletedToolCalls().transformHistory(history, in: context)
        problems += HistoryInvariants.dropping(input: input, output: output.entries)
      case .window(let size):
        output = try await RollingWindow(size, tokenCounter: counter).transformHistory(history, in: context)
        problems += HistoryInvariants.window(size, input: input, output: output.entries, counter: counter)
      case .compacting(let budget):
        output = try await CompactingHistory(
          tokenBudget: budget, tokenCounter: counter,
          options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog())
        )
        .transformHistory(history, in: context)
      case .summarize(let size, let fails):
        let modifier = SummarizeHistory(
          threshold: size, model: FixedSummaryModel(behaviour: FixedSummaryModel.Behaviour(fails: fails)),
          tokenCounter: counter, options: .init(store: store))
        output = try await modifier.transformHistory(history, in: context)
        problems += HistoryInvariants.summary(
          size, summarizerFailed: fails, input: input, output: output.entries, counter: counter)
      }
      problems = problems.map { "\(step): \($0)" }
      problems += HistoryInvariants.common(input: input, output: output.entries).map { "\(step): \($0)" }
      guard problems.isEmpty else { return problems }
      history = output
    }
    if transcript != stored { problems.append("the stored transcript changed") }
    return problems
  }
}

@Suite(.timeLimit(.minutes(20))) struct HistoryPropertyTests {
  /// Serialized, in shards: each case has the process to itself and stays well
  /// inside its time limit on a busy machine.
  @Suite("History properties", .serialized) struct Properties {
    /// 2,000 random transcripts in the test command (every hard shape of the
    /// generator comes hundreds of times); `HISTORY_PROPERTY_CASES=N` runs N.
    static func caseCount() throws -> Int {
      try PropertyCaseCount(default: 2_000, variable: "HISTORY_PROPERTY_CASES").value
    }
    static let shardCount = 10

    @Test(arguments: 0..<shardCount)
    func `every modifier and every order keeps the invariants on random transcripts`(shard: Int) async throws
    {
      var seeds = Array(stride(from: shard, to: try Self.caseCount(), by: Self.shardCount)).map { UInt64($0) }
      if let only = ProcessInfo.processInfo.environment["HISTORY_PROPERTY_SEED"].flatMap(UInt64.init) {
        seeds = shard == 0 ? [only] : []
      }
      for seed in seeds {
        // Each seed is CPU work with no real suspension: let the other suites'
        // tasks (servers, deadlines) have a cooperative thread between seeds.
        await Task.yield()
        let testCase = PropertyCase(seed: seed)
        let problems = try await testCase.problems()
        guard problems.isEmpty else {
          Issue.record(
            """
            seed \(seed) (rerun with HISTORY_PROPERTY_SEED=\(seed)): \(testCase.transcript.count) entries, \
            pipeline in run order: \(testCase.steps.map(\.description).joined(separator: " → "))
            \(problems.prefix(5).joined(separator: "\n"))
            """)
          return
        }
      }
    }
  }

  /// The generator reaches the shapes the modifiers find hard, often enough for
  /// the property test above to meet each of them many times.
  @Suite("History generator coverage") struct Coverage {
    /// What one transcript holds of each hard shape.
    struct Shapes {
      var promptBetweenCallAndOutput = false
      var callWithoutOutput = false
      var severalCallsInARound = false
      var outputsOutOfCallOrder = false
      var imageBeforeTheCurrentTurn = false
      var earlierSummary = false

      init(_ entries: [Transcript.Entry]) {
        var callPosition: [String: Int] = [:]
        var callOrder: [String: Int] = [:]
        var answered: Set<String> = []
        var lastAnsweredOrder: [Int: Int] = [:]
        for (index, entry) in entries.enumerated() {
          switch entry {
          case .toolCalls(let calls):
            severalCallsInARound = severalCallsInARound || calls.calls.count > 1
            for (order, call) in calls.calls.enumerated() {
              callPosition[call.id] = index
              callOrder[call.id] = order
            }
          case .toolOutput(let output):
            answered.insert(output.id)
            guard let call = callPosition[output.id], let order = callOrder[output.id] else { break }
            if entries[(call + 1)..<index].contains(where: { $0.kindName == "prompt" }) {
              promptBetweenCallAndOutput = true
            }
            if let previous = lastAnsweredOrder[call], previous > order { outputsOutOfCallOrder = true }
            lastAnsweredOrder[call] = order
          default: break
          }
        }
        callWithoutOutput = !Set(callPosition.keys).subtracting(answered).isEmpty
        let currentTurn = HistoryInvariants.currentTurnStart(entries)
        imageBeforeTheCurrentTurn = entries[..<currentTurn].contains { entry in
          entry.segments.contains { if case .attachment = $0 { true } else { false } }
        }
        earlierSummary = entries.contains(where: \.isHistorySummary)
      }
    }

    @Test func `a few hundred seeds hold every hard shape, each in many transcripts`() {
      var counts: [String: Int] = [:]
      let seeds = 0..<300
      for seed in seeds {
        let shapes = Shapes(PropertyCase(seed: UInt64(seed)).transcript.entries)
        for (name, present) in [
          ("a prompt between a call and its output", shapes.promptBetweenCallAndOutput),
          ("a call without output", shapes.callWithoutOutput),
          ("several calls in a round", shapes.severalCallsInARound),
          ("outputs out of call order", shapes.outputsOutOfCallOrder),
          ("an image before the current turn", shapes.imageBeforeTheCurrentTurn),
          ("an earlier summary", shapes.earlierSummary),
        ] where present {
          counts[name, default: 0] += 1
        }
      }
      for name in [
        "a prompt between a call and its output", "a call without output", "several calls in a round",
        "outputs out of call order", "an image before the current turn", "an earlier summary",
      ] {
        #expect(counts[name, default: 0] >= 15, "\(name): \(counts[name, default: 0]) of \(seeds.count)")
      }
    }

    @Test func `every pipeline of more than one modifier runs compactingHistory`() {
      let compacting = 3
      #expect(PropertyCase.pipelines.filter { $0.count > 1 }.allSatisfy { $0.contains(compacting) })
      // And every modifier runs alone, and at every position of some pipeline.
      for kind in 0...3 {
        #expect(PropertyCase.pipelines.contains([kind]))
        for position in 0...3 {
          #expect(
            PropertyCase.pipelines.contains { $0.count == 4 && $0[position] == kind },
            "modifier \(kind) never runs at position \(position)")
        }
      }
    }
  }
}
