import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// A long conversation through a real `LanguageModelSession`, with tool loops
/// and a scripted summarizer.
@Suite("History compression end to end", .timeLimit(.minutes(20))) struct ConversationEndToEndTests {
  static let turnCount = 200

  /// The main model's script: every third turn calls the weather tool first.
  static func mainScript() -> ModelScript {
    var steps: [ScriptStep] = []
    for turn in 0..<turnCount {
      if turn % 3 == 0 {
        steps.append(.toolCall(name: "weather", arguments: #"{"city":"City \#(turn)"}"#))
      }
      steps.append(.text("Answer \(turn): " + String(repeating: "details ", count: 20)))
    }
    return ModelScript(steps)
  }

  /// Runs the conversation and returns what the model was sent, generation by generation.
  static func converse(
    profile: some DynamicProfile, script: ModelScript
  ) async throws -> (session: LanguageModelSession, rewrittenTurns: Set<Int>, notes: [GenerationNote]) {
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    var records = session.generationRecords.makeAsyncIterator()
    for turn in 0..<turnCount {
      try await session.respond(to: "Question \(turn): what should I pack for a trip next week?")
    }
    // The notes of every generation, tool-loop rounds included.
    var notes: [GenerationNote] = []
    for _ in script.requests.indices {
      notes += await records.next()?.notes ?? []
    }
    var rewrittenTurns: Set<Int> = []
    let requests = script.requests
    var turn = 0
    for index in requests.indices.dropFirst() {
      let previous = requests[index - 1].transcript.entries
      let current = requests[index].transcript.entries
      if case .prompt = current.last, !current.last.map(\.isHistorySummary).isTrue { turn += 1 }
      if current.count < previous.count || Array(current.prefix(previous.count)) != previous {
        rewrittenTurns.insert(turn)
      }
    }
    return (session, rewrittenTurns, notes)
  }

  @Test func `200 turns with a summarizer: few summarizer calls, and the prefix changes only when it runs`()
    async throws
  {
    let summarizerScript = ModelScript(
      (1...100).map { .text("Summary \($0): the user is packing for a trip.") })
    let script = Self.mainScript()
    let counter = EstimatingTokenCounter(cache: TokenCountCache())
    let profile = Profile {
      Instructions("You help people pack for trips.")
      WeatherTool()
    }
    .summarizeHistory(
      threshold: .tokens(2_000), model: ScriptedLanguageModel(script: summarizerScript),
      tokenCounter: counter,
      options: .init(store: SummaryStore()))
    let (session, rewrittenTurns, notes) = try await Self.converse(profile: profile, script: script)

    let summarizerCalls = summarizerScript.playedCount
    print(
      "summarizeHistory(.tokens(2000)) over \(Self.turnCount) turns: \(summarizerCalls) summarizer calls, "
        + "\(rewrittenTurns.count) turns whose visible prefix changed, \(script.requests.count) generations")
    #expect(summarizerCalls >= 5)
    #expect(summarizerCalls <= 25)
    #expect(rewrittenTurns.count == summarizerCalls)
    #expect(notes.filter { $0.kind == .historyRewritten }.count == summarizerCalls)
    #expect(!notes.contains { $0.kind == .fallback })

    // The session's transcript holds the committed summary and the turns after it; the full
    // transcript keeps everything. The model sees instructions, one summary, then whole turns within budget.
    #expect(
      session.fullTranscript.filter { if case .prompt = $0 { true } else { false } }.count == Self.turnCount)
    #expect(session.transcript.count < session.fullTranscript.count)
    #expect(session.transcript.entries.contains { $0.containsHistorySummary })
    for request in script.requests {
      let sent = request.transcript.entries
      #expect(sent.first.map { if case .instructions = $0 { true } else { false } } == true)
      #expect(sent.filter(\.isHistorySummary).count <= 1)
      let verbatim = sent.filter { !$0.isHistorySummary }
      #expect(counter.tokenCounts(of: verbatim).reduce(0, +) <= 2_000)
      #expect(HistoryInvariants.orphans(sent).isEmpty)
    }
    // The summarizer was given the previous summary to fold in, never as a user message.
    let foldingPrompts = summarizerScript.requests.dropFirst().compactMap {
      $0.transcript.last?.segments.joinedText
    }
    #expect(foldingPrompts.allSatisfy { $0.hasPrefix("The summary of the conversation so far:") })
    #expect(foldingPrompts.allSatisfy { !$0.contains("User: Summary of the earlier") })
  }

  @Test func `200 turns with a rolling window of the same size: the prefix changes far more often`()
    async throws
  {
    let script = Self.mainScript()
    let profile = Profile {
      Instructions("You help people pack for trips.")
      WeatherTool()
    }
    .rollingWindow(.tokens(2_000), tokenCounter: EstimatingTokenCounter(cache: TokenCountCache()))
    let (_, rewrittenTurns, _) = try await Self.converse(profile: profile, script: script)
    print(
      "rollingWindow(.tokens(2000)) over \(Self.turnCount) turns: \(rewrittenTurns.count) turns whose visible prefix changed"
    )
    #expect(rewrittenTurns.count > 100)
  }

  @Test
  func `the trap: a rolling window outside a summarizer of the same size means the summarizer never runs`()
    async throws
  {
    let summarizerScript = ModelScript((1...100).map { .text("Summary \($0).") })
    let profile = Profile {
      Instructions("You help people pack for trips.")
      WeatherTool()
    }
    .summarizeHistory(
      threshold: .tokens(2_000), model: ScriptedLanguageModel(script: summarizerScript),
      options: .init(store: SummaryStore())
    )
    .rollingWindow(.tokens(2_000))
    _ = try await Self.converse(profile: profile, script: Self.mainScript())
    #expect(summarizerScript.playedCount == 0)
  }

  /// Runs the three modifiers in the given order and returns the summarizer calls and the turns whose prefix changed.
  static func chain(windowOutside: Bool) async throws -> (calls: Int, rewrittenTurns: Int) {
    let summarizerScript = ModelScript((1...300).map { .text("Summary \($0).") })
    let script = Self.mainScript()
    let base = Profile {
      Instructions("You help people pack for trips.")
      WeatherTool()
    }
    let summarizer = ScriptedLanguageModel(script: summarizerScript)
    let options = SummarizeHistory.Options(store: SummaryStore())
    let rewritten: Set<Int>
    if windowOutside {
      // The companion package's order: the window runs before the summarizer.
      let profile = base.summarizeHistory(threshold: .tokens(2_000), model: summarizer, options: options)
        .rollingWindow(.tokens(4_000)).droppingCompletedToolCalls()
      rewritten = try await Self.converse(profile: profile, script: script).rewrittenTurns
    } else {
      let profile = base.rollingWindow(.tokens(4_000))
        .summarizeHistory(threshold: .tokens(2_000), model: summarizer, options: options)
        .droppingCompletedToolCalls()
      rewritten = try await Self.converse(profile: profile, script: script).rewrittenTurns
    }
    return (summarizerScript.playedCount, rewritten.count)
  }

  @Test func `a larger window run after the summarizer is a backstop that costs nothing`() async throws {
    let inside = try await Self.chain(windowOutside: false)
    let outside = try await Self.chain(windowOutside: true)
    print(
      "droppingCompletedToolCalls → summarizeHistory(2000) → rollingWindow(4000): \(inside.calls) summarizer "
        + "calls, \(inside.rewrittenTurns) turns whose prefix changed; with the window before the summarizer: "
        + "\(outside.calls) calls, \(outside.rewrittenTurns) turns")
    #expect(inside.calls <= 25)
    // Dropping the previous turn's tool calls rewrites that turn once, after each of the ~67 tool turns.
    #expect(inside.rewrittenTurns <= Self.turnCount / 3 + inside.calls + 1)
    // A window that runs first would move every turn and make the summarizer run every turn;
    // the committed summary keeps the history under the window, so it costs no more than inside.
    #expect(outside.calls <= 25)
  }

  @Test func `a summarizer that fails never fails the user's request`() async throws {
    struct Down: Error {}
    let summarizerScript = ModelScript((1...200).map { _ in .failure(Down()) })
    let script = Self.mainScript()
    let profile = Profile {
      Instructions("You help people pack for trips.")
      WeatherTool()
    }
    .summarizeHistory(
      threshold: .tokens(2_000), model: ScriptedLanguageModel(script: summarizerScript),
      options: .init(store: SummaryStore()))
    let (session, _, notes) = try await Self.converse(profile: profile, script: script)
    #expect(session.transcript.count > Self.turnCount * 2)
    #expect(
      notes.contains { $0.kind == .fallback && $0.names(.unit) == ["tokens"] && $0.counts[.budget] == 2_000 })
  }
}

extension Optional where Wrapped == Bool {
  var isTrue: Bool { self == true }
}
