import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// The one summary routine of `summarizeHistory` and `compactingHistory`,
/// end to end through a session: the failure back-off, the memo key and the
/// summary counted against a token threshold.
@Suite("One summary path", .timeLimit(.minutes(10))) struct SummaryPathTests {
  struct SummarizerDown: Error {}

  /// A prompt of 100 words, numbered so that every turn differs.
  static func prompt(_ number: Int) -> String {
    (0..<100).map { "p\(number)w\($0)" }.joined(separator: " ")
  }

  /// Plays `turns` turns of a 100-word prompt and a one-word answer; returns the sent transcripts.
  static func play(
    turns: Int, profile: some DynamicProfile
  ) async throws -> [Transcript] {
    let main = ScriptedLanguageModel(script: ModelScript((0..<turns).map { _ in .text("ok") }))
    let session = LanguageModelSession(model: main, profile: profile)
    var records = session.generationRecords.makeAsyncIterator()
    var sent: [Transcript] = []
    for turn in 1...turns {
      try await session.respond(to: prompt(turn))
      sent.append(try #require(await records.next()).sentTranscript)
    }
    return sent
  }

  @Test func `compactingHistory does not ask a summarizer that just failed again for the same range`()
    async throws
  {
    let summarizer = ScriptedLanguageModel(
      script: ModelScript((0..<8).map { _ in .failure(SummarizerDown()) }))
    // Instructions 2 words, a turn 101. The history passes the budget of 500
    // at turn 5 (2 + 4 × 101 + 100 = 506) and is cut to the current turn; the
    // next cut comes at turn 9 (2 + 62 reserved + 4 × 101 + 100 = 568).
    let profile = Profile { Instructions("Be brief.") }
      .compactingHistory(
        tokenBudget: 500, pinnedTokens: 0, model: summarizer,
        tokenCounter: WordTokenCounter(toolDefinitionTokens: 10),
        options: .init(retryDelay: .seconds(600), store: SummaryStore(), prefixBreaks: PrefixBreakLog()))
    let sent = try await Self.play(turns: 8, profile: profile)
    // Asked once, at turn 5; turns 6 to 8 need the same range and fall back at once.
    #expect(summarizer.script.requests.count == 1)
    // The turns were dropped instead: the instructions and the turns from the fifth.
    let keptEntryCount: Int = 1 + 2 * 3 + 1
    #expect(sent[7].count == keptEntryCount)
  }

  @Test func `compactingHistory uses a summary that brings the history exactly to its budget, not one more`()
    async throws
  {
    // One token per byte, no framing. The summary entry is its heading (51 bytes) and "S": 52 tokens.
    let counter = EstimatingTokenCounter(
      bytesPerToken: 1, imageTokenCount: 0, framingTokenCount: 0, cache: TokenCountCache())
    func compacted(currentPrompt tokens: Int) async throws -> Transcript {
      let modifier = CompactingHistory(
        tokenBudget: 1_000, target: 400, summaryReserve: 100, pinnedTokens: 0,
        model: ScriptedLanguageModel(script: ModelScript([.text("S")])), tokenCounter: counter,
        summaryPostamble: "",
        options: CompactingHistory.Options(store: SummaryStore(), prefixBreaks: PrefixBreakLog()))
      // "Be brief." 9 + p1 100 + r1 2 + p2: over the budget; the cut keeps p2, p1 and r1 are summarized.
      let history = Transcript(entries: [
        Make.instructions("Be brief."), Make.prompt("p1", String(repeating: "a", count: 100)),
        Make.response("r1", "ok"), Make.prompt("p2", String(repeating: "b", count: tokens)),
      ])
      return try await modifier.transformHistory(history, in: Make.context())
    }
    // 9 + 52 + 939 = 1,000: exactly the budget, so the summary is used.
    let atBudget = try await compacted(currentPrompt: 939)
    #expect(atBudget.count == 3)
    #expect(HistorySummary.summaryText(of: atBudget[1]) == "S")
    #expect(atBudget.last?.id == "p2")
    // 9 + 52 + 940 = 1,001: one over, so the older turns are dropped instead.
    #expect(try await compacted(currentPrompt: 940).ids == ["instructions", "p2"])
  }

  @Test func `two summarizers of one type with different settings do not share summaries`() async throws {
    // Four turns saved from an earlier session, the same entries (and ids) for both sessions.
    let saved = Transcript(
      entries: (1...4).flatMap { turn in
        [Make.prompt("p\(turn)", Self.prompt(turn)), Make.response("r\(turn)", "ok")]
      })
    let store = SummaryStore()
    var counts: [Int] = []
    for variant in ["small", "large"] {
      let summarizer = ScriptedLanguageModel(
        script: ModelScript([.text("Long prompts, summarized by the \(variant) model.")]), variant: variant)
      let profile = Profile { Instructions("Be brief.") }
        .compactingHistory(
          tokenBudget: 500, pinnedTokens: 0, model: summarizer,
          tokenCounter: WordTokenCounter(toolDefinitionTokens: 10),
          options: .init(store: store, prefixBreaks: PrefixBreakLog()))
      let main = ScriptedLanguageModel(script: ModelScript([.text("ok")]))
      let session = LanguageModelSession(model: main, profile: profile, history: saved)
      var records = session.generationRecords.makeAsyncIterator()
      // Turn 5 takes the history to 2 + 4 × 101 + 100 = 506 tokens: the four saved turns are summarized.
      try await session.respond(to: Self.prompt(5))
      let sent = try #require(await records.next()).sentTranscript
      counts.append(summarizer.script.requests.count)
      let summary = try #require(sent.first { $0.isHistorySummary })
      #expect(HistorySummary.summaryText(of: summary) == "Long prompts, summarized by the \(variant) model.")
    }
    #expect(counts == [1, 1])
  }

  @Test func `a summary made without pinned turns is not reused by a modifier that pins the first turn`()
    async throws
  {
    // The four saved turns of 101 tokens and turn 5 (2 + 4 × 101 + 100 = 506 tokens, over the
    // budget of 500): both modifiers cut before turn 5. Without pinned turns the summary stands
    // for turns 1 to 4 (8 entries); with the first turn pinned, for turns 2 to 4 (6 entries).
    let saved = Transcript(
      entries: (1...4).flatMap { turn in
        [Make.prompt("p\(turn)", Self.prompt(turn)), Make.response("r\(turn)", "ok")]
      })
    let store = SummaryStore()
    // One summarizer (one memo key for it) for both sessions.
    let summarizer = ScriptedLanguageModel(
      script: ModelScript([.text("Turns one to four."), .text("Turns two to four.")]))
    var summaries: [String?] = []
    var notes: [[Int]] = []
    for pinned in [0, 150] {
      let profile = Profile { Instructions("Be brief.") }
        .compactingHistory(
          tokenBudget: 500, pinnedTokens: pinned, model: summarizer,
          tokenCounter: WordTokenCounter(toolDefinitionTokens: 10),
          options: .init(store: store, prefixBreaks: PrefixBreakLog()))
      let main = ScriptedLanguageModel(script: ModelScript([.text("ok")]))
      let session = LanguageModelSession(model: main, profile: profile, history: saved)
      var records = session.generationRecords.makeAsyncIterator()
      try await session.respond(to: Self.prompt(5))
      let record = try #require(await records.next())
      summaries.append(
        record.sentTranscript.first { $0.isHistorySummary }.flatMap(HistorySummary.summaryText))
      notes.append(
        record.notes.filter { $0.kind == .information }.compactMap { $0.counts[.entriesSummarized] })
    }
    #expect(summarizer.script.requests.count == 2)
    #expect(summaries == ["Turns one to four.", "Turns two to four."])
    #expect(notes == [[8], [6]])
  }
}
