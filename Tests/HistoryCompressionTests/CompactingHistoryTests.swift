import Foundation
import HistoryCompression
import ModelSession
import TestSupport
import Testing

private let counter = EstimatingTokenCounter()

private func tokens(_ entries: [Transcript.Entry]) -> Int {
  counter.tokenCounts(of: entries).reduce(0, +)
}

private func context() -> ProfileModifierContext {
  ProfileModifierContext(turnIndex: 0, round: 0, toolDefinitions: [], requestID: UUID().uuidString)
}

/// A history of `turns` turns of a prompt and an answer of `answerWords` words each.
private func conversation(turns: Int, answerWords: Int = 40) -> [Transcript.Entry] {
  var entries = [instructionsEntry("You help.")]
  for turn in 0..<turns {
    entries.append(promptEntry(words(10, tag: "t\(turn)p")))
    entries.append(responseEntry(words(answerWords, tag: "t\(turn)a")))
  }
  return entries
}

private struct SummarizerDown: Error {}

@Suite("Compacting history", .timeLimit(.minutes(20))) struct CompactingHistoryTests {
  @Test func `a history within the budget is passed on unchanged`() async throws {
    let entries = conversation(turns: 3)
    let modifier = CompactingHistory(tokenBudget: tokens(entries))
    let result = try await modifier.transformHistory(Transcript(entries: entries), in: context())
    #expect(result.entries == entries)
  }

  @Test func `over the budget, the oldest turns go in one step down to the target`() async throws {
    let entries = conversation(turns: 20) + [promptEntry("next")]
    let budget = tokens(entries) - 1
    let modifier = CompactingHistory(tokenBudget: budget, target: budget / 2, pinnedTokens: 0)
    let modifierContext = context()
    let result = try await modifier.transformHistory(Transcript(entries: entries), in: modifierContext)
    #expect(tokens(result.entries) <= budget / 2)
    #expect(result.first == entries.first)
    guard case .prompt = result[1] else {
      Issue.record("the kept history starts with a prompt")
      return
    }
    #expect(Array(result.entries.dropFirst()) == Array(entries.suffix(result.count - 1)))
    #expect(
      modifierContext.notes.contains { $0.kind == .historyRewritten && $0.source == "compactingHistory" })
  }

  @Test func `between compactions the visible history only grows`() async throws {
    let modifier = CompactingHistory(tokenBudget: 600)
    var entries = conversation(turns: 1)
    var previous: Transcript?
    var compactions = 0
    for turn in 1..<60 {
      entries.append(promptEntry(words(10, tag: "t\(turn)p")))
      let modifierContext = context()
      let visible = try await modifier.transformHistory(Transcript(entries: entries), in: modifierContext)
      let rewritten = modifierContext.notes.contains { $0.kind == .historyRewritten }
      if let previous, !rewritten {
        #expect(Array(visible.entries.prefix(previous.count)) == previous.entries)
      }
      if rewritten { compactions += 1 }
      #expect(tokens(visible.entries) <= 600)
      entries.append(responseEntry(words(40, tag: "t\(turn)a")))
      previous = Transcript(entries: visible.entries + [entries[entries.count - 1]])
    }
    // About 80 tokens a turn, 300 freed by each compaction: one every four turns or so.
    #expect((10...16).contains(compactions))
  }

  @Test func `the same stored history gives the same visible history`() async throws {
    let entries = conversation(turns: 40) + [promptEntry("next")]
    let first = try await CompactingHistory(tokenBudget: 900).transformHistory(
      Transcript(entries: entries), in: context())
    let second = try await CompactingHistory(tokenBudget: 900).transformHistory(
      Transcript(entries: entries), in: context())
    #expect(first == second)
    #expect(first.count < entries.count)
  }

  @Test func `a summarizer replaces the dropped turns with one memoized summary`() async throws {
    let script = ModelScript([.text("They talked about turns.")])
    let store = SummaryStore()
    let modifier = CompactingHistory(
      tokenBudget: 900, model: ScriptedLanguageModel(script: script),
      options: CompactingHistory.Options(store: store))
    let entries = conversation(turns: 40) + [promptEntry("next")]
    let once = try await modifier.transformHistory(Transcript(entries: entries), in: context())
    let twice = try await modifier.transformHistory(Transcript(entries: entries), in: context())
    #expect(once == twice)
    #expect(await store.computedCount == 1)
    #expect(once[1].isHistorySummary)
    #expect(HistorySummary.summaryText(of: once[1]) == "They talked about turns.")
    #expect(tokens(once.entries) <= 900)
  }

  @Test func `a failing summarizer drops the turns instead and says so`() async throws {
    let script = ModelScript([.failure(SummarizerDown())])
    let modifier = CompactingHistory(
      tokenBudget: 900, model: ScriptedLanguageModel(script: script),
      options: CompactingHistory.Options(store: SummaryStore()))
    let entries = conversation(turns: 40) + [promptEntry("next")]
    let modifierContext = context()
    let result = try await modifier.transformHistory(Transcript(entries: entries), in: modifierContext)
    let dropped = try await CompactingHistory(tokenBudget: 900, summaryReserve: 0).transformHistory(
      Transcript(entries: entries), in: context())
    #expect(!result.contains { $0.isHistorySummary })
    #expect(tokens(result.entries) <= 900)
    #expect(result.count <= dropped.count)
    #expect(modifierContext.notes.contains { $0.kind == .fallback })
  }

  @Test func `cancelling a turn while the summarizer runs ends it without asking the model`() async throws {
    let summarizing = TestSignal()
    let summarizerScript = ModelScript([.stall(signalling: summarizing), .text("They talked about turns.")])
    let mainScript = ModelScript([.text("The answer.")])
    let profile = Profile { Instructions("You help.") }
      .compactingHistory(
        tokenBudget: 900, model: ScriptedLanguageModel(script: summarizerScript),
        options: CompactingHistory.Options(store: SummaryStore()))
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: mainScript), profile: profile,
      history: Transcript(entries: conversation(turns: 40)))
    let before = session.transcript
    let turn = Task { try await session.respond(to: "next") }
    try await summarizing.wait(upTo: .seconds(60))
    turn.cancel()
    await #expect(throws: CancellationError.self) { try await turn.value }
    // Cancelled, not a failed summarizer: no fallback generation reaches the main model.
    #expect(mainScript.playedCount == 0)
    #expect(session.latestGenerationRecord == nil)
    #expect(session.transcript == before)

    // The next turn asks the summarizer again and sends its summary.
    try await session.respond(to: "next")
    let sent = try #require(mainScript.requests.first).transcript
    #expect(HistorySummary.summaryText(of: sent[1]) == "They talked about turns.")
    #expect(session.latestGenerationRecord?.notes.contains { $0.kind == .fallback } == false)
  }

  @Test func `bad sizes are rejected with a typed error`() async throws {
    let history = Transcript(entries: conversation(turns: 1))
    await #expect(
      throws: HistoryCompressionError.invalidSize(modifier: "compactingHistory", size: .tokens(0))
    ) {
      try await CompactingHistory(tokenBudget: 0).transformHistory(history, in: context())
    }
    await #expect(throws: HistoryCompressionError.self) {
      try await CompactingHistory(tokenBudget: 100, target: 100).transformHistory(history, in: context())
    }
  }

  @Test func `the default target, summary reserve and pinned allowance are rounded down`() {
    // 13 × 3 / 8 = 4.875 → 4; without a summarizer 4 × 5 / 8 = 2.5 → 2 tokens pinned.
    #expect(CompactingHistory(tokenBudget: 13).target == 4)
    #expect(CompactingHistory(tokenBudget: 13).pinnedTokens == 2)
    // 13 / 4 = 3.25 → 3 tokens set aside for the summary.
    #expect(CompactingHistory(tokenBudget: 100, target: 13).summaryReserve == 3)
  }

  @Test func `each setting just inside its limit is accepted, at the limit it is a typed error`() async throws
  {
    let history = Transcript(entries: conversation(turns: 1))
    let summarizer = ScriptedLanguageModel(script: ModelScript())
    func run(_ modifier: CompactingHistory) async throws {
      _ = try await modifier.transformHistory(history, in: context())
    }
    func invalid(_ name: String, _ value: Double, _ range: String) -> HistoryCompressionError {
      .invalidFraction(modifier: "compactingHistory", name: name, value: value, range: range)
    }
    // The target: at least 1 and under the budget.
    try await run(CompactingHistory(tokenBudget: 1_000, target: 999))
    try await run(CompactingHistory(tokenBudget: 1_000, target: 1))
    await #expect(throws: invalid("target / budget", 1, "(0, 1)")) {
      try await run(CompactingHistory(tokenBudget: 1_000, target: 1_000))
    }
    await #expect(
      throws: HistoryCompressionError.invalidSize(modifier: "compactingHistory", size: .tokens(0))
    ) {
      try await run(CompactingHistory(tokenBudget: 1_000, target: 0))
    }
    // The summary reserve: from 0 to under the target (-1 / 400 = -0.0025).
    try await run(CompactingHistory(tokenBudget: 1_000, target: 400, summaryReserve: 399, model: summarizer))
    try await run(CompactingHistory(tokenBudget: 1_000, target: 400, summaryReserve: 0, model: summarizer))
    await #expect(throws: invalid("summaryReserve / target", 1, "[0, 1)")) {
      try await run(
        CompactingHistory(tokenBudget: 1_000, target: 400, summaryReserve: 400, model: summarizer))
    }
    await #expect(throws: invalid("summaryReserve / target", -0.0025, "[0, 1)")) {
      try await run(CompactingHistory(tokenBudget: 1_000, target: 400, summaryReserve: -1, model: summarizer))
    }
    // The pinned allowance: from 0 to under the target.
    try await run(CompactingHistory(tokenBudget: 1_000, target: 400, pinnedTokens: 399))
    try await run(CompactingHistory(tokenBudget: 1_000, target: 400, pinnedTokens: 0))
    await #expect(throws: invalid("pinnedTokens / target", 1, "[0, 1)")) {
      try await run(CompactingHistory(tokenBudget: 1_000, target: 400, pinnedTokens: 400))
    }
    await #expect(throws: invalid("pinnedTokens / target", -0.0025, "[0, 1)")) {
      try await run(CompactingHistory(tokenBudget: 1_000, target: 400, pinnedTokens: -1))
    }
  }

  @Test func `it never exceeds its budget on a thousand random conversations`() async throws {
    var compactions = 0
    var generations = 0
    for seed in UInt64(1)...1_000 {
      var random = SeededGenerator(seed: seed)
      let budget = Int.random(in: 400...3_000, using: &random)
      let conversation = RandomConversation(
        seed: seed, turns: Int.random(in: 2...24, using: &random),
        instructionsWords: Int.random(in: 1...budget / 20, using: &random), turnLimit: budget / 2)
      let modifier = CompactingHistory(tokenBudget: budget)
      var previous: [Transcript.Entry] = []
      for (history, output) in conversation.generations {
        let modifierContext = context()
        let visible = try await modifier.transformHistory(Transcript(entries: history), in: modifierContext)
        generations += 1
        let total = tokens(visible.entries)
        #expect(total <= budget, "seed \(seed): \(total) tokens over a budget of \(budget)")
        if modifierContext.notes.contains(where: { $0.kind == .historyRewritten }) {
          compactions += 1
        } else if !previous.isEmpty {
          #expect(
            Array(visible.entries.prefix(previous.count)) == previous,
            "seed \(seed): rewritten without a note")
        }
        previous = visible.entries + output
      }
    }
    #expect(compactions > 0)
    // Turns of up to half the budget can force a compaction on most turns; on average they are rare.
    #expect(compactions * 5 < generations)
  }
}
