import HistoryCompression
import ModelSession
import TestSupport
import Testing

@Suite("Summarize history", .timeLimit(.minutes(20))) struct SummarizeHistoryTests {
  let behaviour = FixedSummaryModel.Behaviour()
  let store = SummaryStore()

  func modifier(_ threshold: HistorySize, fraction: Double = 0.5) -> SummarizeHistory {
    SummarizeHistory(
      threshold: threshold, model: FixedSummaryModel(behaviour: behaviour),
      tokenCounter: EstimatingTokenCounter(cache: TokenCountCache()),
      options: .init(retainedFraction: fraction, store: store))
  }

  func conversation(turns: Int) -> Transcript {
    Transcript(entries: [Make.instructions()] + (1..<turns).flatMap(Make.turn) + [Make.prompt("p\(turns)")])
  }

  @Test func `leaves a history under the threshold alone and calls no model`() async throws {
    let history = conversation(turns: 4)
    let result = try await modifier(.entries(20)).separatedResult(history, in: Make.context())
    #expect(result == history)
    #expect(behaviour.calls == 0)
  }

  @Test func `a history exactly at the threshold is left alone, one entry past it is compacted`() async throws
  {
    // conversation(turns: 5): instructions, four turns of two, p5 = 10 entries.
    let history = conversation(turns: 5)
    #expect(history.count == 10)
    let atThreshold = try await modifier(.entries(10)).separatedResult(history, in: Make.context())
    #expect(atThreshold == history)
    #expect(behaviour.calls == 0)
    let pastThreshold = try await modifier(.entries(9)).separatedResult(history, in: Make.context())
    #expect(pastThreshold[1].isHistorySummary)
    #expect(pastThreshold.count < history.count)
    #expect(behaviour.calls == 1)
  }

  @Test func `a summary that brings the history exactly to the threshold is used, one past it is not`()
    async throws
  {
    // Instructions, a turn, then a tool loop of five entries that cannot be cut: 8 entries.
    let history = Transcript(
      entries: [Make.instructions(), Make.prompt("p1"), Make.response("r1"), Make.prompt("p2")]
        + [Make.calls("t2", ["a"]), Make.output("a"), Make.calls("t3", ["b"]), Make.output("b")])
    // Threshold 7: the cut keeps p2's loop (5); instructions + summary + 5 = 7, exactly the threshold.
    let atThreshold = try await modifier(.entries(7)).separatedResult(history, in: Make.context(round: 2))
    #expect(atThreshold.count == 7)
    #expect(atThreshold[1].isHistorySummary)
    #expect(Array(atThreshold.ids.suffix(5)) == ["p2", "t2", "a", "t3", "b"])
    // Threshold 6: the same cut with its summary makes 7, one past: a rolling window of 6 instead.
    let context = Make.context(round: 2)
    let overThreshold = try await modifier(.entries(6)).separatedResult(history, in: context)
    #expect(overThreshold.ids == ["instructions", "p2", "t2", "a", "t3", "b"])
    #expect(context.notes.map(\.kind) == [.fallback])
  }

  @Test func `the size a compaction brings the history down to is the fraction rounded down`() async throws {
    // 12 entries over a threshold of 10; 10 × 0.75 = 7.5 → 7 entries. The plan compacts when
    // the 11th entry arrives: instructions + summary + the turns from p3 (6 entries) = 8 > 7,
    // from p4 (4 entries) = 6 ≤ 7. Then p6 makes 7. Rounded up to 8, p3 would stay.
    let history = conversation(turns: 6)
    let result = try await modifier(.entries(10), fraction: 0.75).separatedResult(
      history, in: Make.context())
    #expect(result.count == 7)
    #expect(result[1].isHistorySummary)
    #expect(Array(result.ids.dropFirst(2)) == ["p4", "r4", "p5", "r5", "p6"])
  }

  @Test func `replaces older turns with one summary right after the instructions`() async throws {
    let history = conversation(turns: 8)
    let result = try await modifier(.entries(10)).separatedResult(history, in: Make.context())
    #expect(result.first?.id == "instructions")
    #expect(result[1].isHistorySummary)
    #expect(result.count <= 10)
    guard case .prompt = result[2] else {
      Issue.record("the verbatim part starts at \(result[2].id), not at a prompt")
      return
    }
    #expect(result.last?.id == "p8")
    #expect(behaviour.calls == 1)
    let summary = try #require(HistorySummary.summaryText(of: result[1]))
    #expect(summary.hasPrefix("Summary #1"))
    #expect(result[1].segments.joinedText.contains(SummarizeHistory.defaultPostamble))
  }

  @Test func `works in the middle of a tool loop, not only after a prompt`() async throws {
    let history = Transcript(
      entries: [Make.instructions()] + (1...6).flatMap(Make.turn) + [
        Make.prompt("p7"), Make.calls("t7", ["a", "b"]), Make.output("a"), Make.output("b"),
      ])
    let result = try await modifier(.entries(10)).separatedResult(history, in: Make.context(round: 1))
    #expect(result[1].isHistorySummary)
    #expect(Array(result.ids.suffix(4)) == ["p7", "t7", "a", "b"])
  }

  @Test func `folds a previous summary in instead of summarizing it as conversation`() async throws {
    let old = HistorySummary.entry(summary: "The user likes tea.", postamble: "Carry on.")
    let history = Transcript(
      entries: [Make.instructions(), old] + (1..<8).flatMap(Make.turn) + [Make.prompt("p8")])
    let result = try await modifier(.entries(10)).separatedResult(history, in: Make.context())
    #expect(result.filter(\.isHistorySummary).count == 1)
    #expect(result[1].isHistorySummary && result[1].id != old.id)
    let prompt = try #require(behaviour.prompts.first)
    #expect(prompt.contains("The summary of the conversation so far:\n\nThe user likes tea."))
    #expect(!prompt.contains("User: Summary of the earlier"))
    #expect(!prompt.contains("Carry on."))
  }

  @Test func `a failing summarizer falls back to a rolling window and notes why; the request goes on`()
    async throws
  {
    behaviour.fails = true
    let context = Make.context()
    let history = conversation(turns: 8)
    let result = try await modifier(.entries(10)).separatedResult(history, in: context)
    let window = try await RollingWindow(.entries(10)).transformHistory(history, in: Make.context())
    #expect(result == window)
    #expect(context.notes.contains { $0.kind == .fallback && $0.source == "summarizeHistory" })
  }

  @Test func `after a failure the summarizer is not asked again for a while, then is`() async throws {
    behaviour.fails = true
    let history = conversation(turns: 8)
    let patient = SummarizeHistory(
      threshold: .entries(10), model: FixedSummaryModel(behaviour: behaviour),
      options: .init(retryDelay: .seconds(600), store: store))
    _ = try await patient.separatedResult(history, in: Make.context())
    let context = Make.context()
    _ = try await patient.separatedResult(history, in: context)
    #expect(behaviour.calls == 1)
    #expect(context.notes.contains { $0.kind == .fallback && $0.message.contains("not asked again") })
    behaviour.fails = false
    let eager = SummarizeHistory(
      threshold: .entries(10), model: FixedSummaryModel(behaviour: behaviour),
      options: .init(retryDelay: .zero, store: store))
    let result = try await eager.separatedResult(history, in: Make.context())
    #expect(behaviour.calls == 2)
    #expect(result[1].isHistorySummary)
  }

  @Test func `emptying the store forgets a recent failure and every summary`() async throws {
    behaviour.fails = true
    let history = conversation(turns: 8)
    let patient = SummarizeHistory(
      threshold: .entries(10), model: FixedSummaryModel(behaviour: behaviour),
      options: .init(retryDelay: .seconds(600), store: store))
    let failed = try await patient.separatedResult(history, in: Make.context())
    #expect(!failed.contains { $0.isHistorySummary })
    #expect(behaviour.calls == 1)

    // Within the retry delay, but the store was emptied: the summarizer is asked again.
    await store.removeAll()
    behaviour.fails = false
    let context = Make.context()
    let summarized = try await patient.separatedResult(history, in: context)
    #expect(behaviour.calls == 2)
    #expect(summarized[1].isHistorySummary)
    #expect(!context.notes.contains { $0.kind == .fallback })
    #expect(await store.count == 1)

    // The summary is forgotten too: the same range is summarized anew.
    await store.removeAll()
    #expect(await store.count == 0)
    let again = try await patient.separatedResult(history, in: Make.context())
    #expect(behaviour.calls == 3)
    #expect(HistorySummary.summaryText(of: again[1])?.hasPrefix("Summary #3 ") == true)
  }

  @Test func `a summarizer that stalls times out and falls back`() async throws {
    let script = ModelScript([.stall()])
    let modifier = SummarizeHistory(
      threshold: .entries(10), model: ScriptedLanguageModel(script: script),
      options: .init(timeout: .milliseconds(50), store: store))
    let context = Make.context()
    let result = try await modifier.separatedResult(conversation(turns: 8), in: context)
    #expect(!result.contains { $0.isHistorySummary })
    let note = try #require(context.notes.first { $0.kind == .fallback })
    #expect(
      note.names == [.reason: ["the summarizer did not answer within 0.05 seconds"], .unit: ["entries"]])
    #expect(note.counts == [.budget: 10])
  }

  @Test func `without a summarizer model outside a session, the fallback note says there is none`()
    async throws
  {
    let context = Make.context()
    let result = try await SummarizeHistory(threshold: .entries(10), options: .init(store: store))
      .separatedResult(conversation(turns: 8), in: context)
    #expect(!result.contains { $0.isHistorySummary })
    #expect(
      context.notes.filter { $0.kind == .fallback }.map(\.names) == [
        [.reason: ["no summarizer model was given and there is no session model to use"], .unit: ["entries"]]
      ])
  }

  @Test func `cancelling the generation stops a summarizer that stalls, without waiting for the timeout`()
    async throws
  {
    let summarizing = TestSignal()
    let script = ModelScript([.stall(signalling: summarizing), .text("Summary after the cancel.")])
    let modifier = SummarizeHistory(
      threshold: .entries(10), model: ScriptedLanguageModel(script: script),
      options: .init(timeout: .seconds(900), store: store))
    let history = conversation(turns: 8)
    let generation = Task { try await modifier.separatedResult(history, in: Make.context()) }
    // Cancel once the summarizer is running, and time from there: a loaded
    // machine may take a while to start the task, never 15 minutes to stop it.
    try await summarizing.wait(upTo: .seconds(120))
    let clock = ContinuousClock()
    let cancelled = clock.now
    generation.cancel()
    await #expect(throws: CancellationError.self) { try await generation.value }
    #expect(clock.now - cancelled < .seconds(300), "waited for the 900 s summarizer timeout")
    #expect(await store.count == 0)
    // A cancelled generation is not a failed summary: the next generation asks
    // again at once, although the retry delay (60 s) has not passed.
    let context = Make.context()
    let again = try await modifier.separatedResult(history, in: context)
    #expect(again[1].isHistorySummary)
    #expect(HistorySummary.summaryText(of: again[1]) == "Summary after the cancel.")
    #expect(!context.notes.contains { $0.kind == .fallback })
  }

  @Test func `a full store forgets its oldest summary, not the newest`() async throws {
    let small = SummaryStore(capacity: 2)
    let modifier = SummarizeHistory(
      threshold: .entries(10), model: FixedSummaryModel(behaviour: behaviour), options: .init(store: small))
    // Three conversations with nothing in common: three summaries, one more than the store keeps.
    let histories = [0, 100, 200].map { offset in
      Transcript(
        entries: [Make.instructions()] + (offset + 1..<offset + 8).flatMap(Make.turn)
          + [Make.prompt("p\(offset + 8)")])
    }
    for history in histories { _ = try await modifier.separatedResult(history, in: Make.context()) }
    #expect(behaviour.calls == 3)
    #expect(await small.count == 2)
    // The newest two are kept: no call for them.
    _ = try await modifier.separatedResult(histories[2], in: Make.context())
    _ = try await modifier.separatedResult(histories[1], in: Make.context())
    #expect(behaviour.calls == 3)
    // The oldest was forgotten: computed again.
    _ = try await modifier.separatedResult(histories[0], in: Make.context())
    #expect(behaviour.calls == 4)
  }

  @Test func `the summary of a range is computed once and the prefix stays byte-identical`() async throws {
    let first = try await modifier(.entries(12)).separatedResult(conversation(turns: 8), in: Make.context())
    let again = try await modifier(.entries(12)).separatedResult(conversation(turns: 8), in: Make.context())
    let longer = try await modifier(.entries(12)).separatedResult(conversation(turns: 9), in: Make.context())
    #expect(behaviour.calls == 1)
    #expect(again == first)
    #expect(Array(longer.entries.prefix(first.count - 1)) == Array(first.entries.dropLast()))
    #expect(try first.jsonData() == again.jsonData())
  }

  @Test func `a summary entry's id changes with its summary, so counts cached by id are not reused`() {
    // Token counters and render caches remember entries by id (`ServerTokenCounter` counts a
    // prompt once per id): a new summary under the old id would keep the old summary's count.
    let first = HistorySummary.entry(summary: "The user likes tea.", postamble: "Carry on.")
    let second = HistorySummary.entry(summary: "The user likes coffee.", postamble: "Carry on.")
    let again = HistorySummary.entry(summary: "The user likes tea.", postamble: "Carry on.")
    #expect(first.id != second.id)
    #expect(first.id == again.id)
    #expect(first.id.hasPrefix(HistorySummary.entryIDPrefix))
  }

  @Test func `each new summary folds in the latest one, not an older one`() async throws {
    // The history grows a turn at a time from 8 to 20 turns over a threshold of 10 entries:
    // every few turns a new cut, and a new summary that must fold in the one before it.
    let modifier = modifier(.entries(10))
    for turns in 8...20 {
      _ = try await modifier.separatedResult(conversation(turns: turns), in: Make.context())
    }
    let prompts = behaviour.prompts
    try #require(prompts.count >= 3)
    // The first summary has nothing to fold; summary k + 1 folds in "Summary #k of … bytes."
    #expect(!prompts[0].contains("The summary of the conversation so far"))
    for (index, prompt) in prompts.enumerated().dropFirst() {
      #expect(
        prompt.contains("The summary of the conversation so far:\n\nSummary #\(index) of"),
        "summary \(index + 1) does not fold in summary \(index)")
    }
  }

  @Test func `each new summary is asked only about the turns the one it folds in did not cover`()
    async throws
  {
    // The same growing history as above: the turns each summarizer prompt lists ("User: question
    // p<n>"), read in order over every prompt, are p1, p2, … once each: no turn is summarized
    // twice (it is already in the summary folded in) and none is skipped.
    let modifier = modifier(.entries(10))
    for turns in 8...20 {
      _ = try await modifier.separatedResult(conversation(turns: turns), in: Make.context())
    }
    let prompts = behaviour.prompts
    try #require(prompts.count >= 3)
    let listed = prompts.map { prompt in
      prompt.split(separator: "\n").compactMap { line in
        line.hasPrefix("User: question p") ? Int(line.dropFirst("User: question p".count)) : nil
      }
    }
    #expect(listed.allSatisfy { !$0.isEmpty }, "\(listed)")
    let all = listed.flatMap { $0 }
    #expect(all == Array(1...all.count), "\(listed)")
  }

  @Test func `the cut moves in large steps: few compactions over many turns`() async throws {
    var prefixes: Set<[String]> = []
    for turns in 2...60 {
      let result = try await modifier(.entries(20)).separatedResult(
        conversation(turns: turns), in: Make.context())
      prefixes.insert(Array(result.ids.prefix(3)))
      #expect(result.count <= 20)
    }
    // Compacting to half of 20 entries frees room for about 5 turns of 2 entries each.
    #expect(behaviour.calls <= 12)
    #expect(prefixes.count == behaviour.calls + 1)
  }

  @Test func `a token threshold catches a few enormous entries that an entry count would miss`() async throws
  {
    let huge = String(repeating: "x", count: 40_000)
    let history = Transcript(entries: [
      Make.instructions(), Make.prompt("p1", huge), Make.response("r1", huge), Make.prompt("p2"),
    ])
    let byEntries = try await modifier(.entries(50)).separatedResult(history, in: Make.context())
    #expect(byEntries == history)
    let byTokens = try await modifier(.tokens(5_000)).separatedResult(history, in: Make.context())
    #expect(byTokens.ids.count == 3 && byTokens[1].isHistorySummary)
  }

  @Test func `bad settings are clear errors`() async throws {
    await #expect(throws: HistoryCompressionError.invalidSize(modifier: "summarizeHistory", size: .tokens(0)))
    {
      try await modifier(.tokens(0)).separatedResult(conversation(turns: 3), in: Make.context())
    }
    let error = await #expect(throws: HistoryCompressionError.self) {
      try await modifier(.entries(10), fraction: 1.5).separatedResult(
        conversation(turns: 3), in: Make.context())
    }
    #expect(error?.description == "summarizeHistory: retainedFraction is 1.5, it must be in (0, 1)")
    // Both ends of the open range are refused; just inside them is accepted.
    for (fraction, text) in [(1.0, "1.0"), (0.0, "0.0")] {
      let atEnd = await #expect(throws: HistoryCompressionError.self) {
        try await modifier(.entries(10), fraction: fraction).separatedResult(
          conversation(turns: 3), in: Make.context())
      }
      #expect(atEnd?.description == "summarizeHistory: retainedFraction is \(text), it must be in (0, 1)")
    }
    for fraction in [0.99, 0.01] {
      let short = conversation(turns: 3)
      #expect(
        try await modifier(.entries(10), fraction: fraction).separatedResult(short, in: Make.context())
          == short)
    }
  }

  @Test func `a summarizer timeout of zero or less is refused with its value, one nanosecond is accepted`()
    async throws
  {
    func summarize(timeout: Duration) -> SummarizeHistory {
      SummarizeHistory(
        threshold: .entries(10), model: FixedSummaryModel(behaviour: behaviour),
        tokenCounter: EstimatingTokenCounter(cache: TokenCountCache()),
        options: .init(timeout: timeout, store: store))
    }
    for (timeout, text) in [(Duration.zero, "0.0 seconds"), (.seconds(-1), "-1.0 seconds")] {
      let error = await #expect(
        throws: HistoryCompressionError.invalidTimeout(
          modifier: "summarizeHistory", timeout: timeout)
      ) {
        try await summarize(timeout: timeout).separatedResult(conversation(turns: 3), in: Make.context())
      }
      #expect(
        error?.description == "summarizeHistory: the summarizer timeout is \(text), it must be more than zero"
      )
    }
    // The smallest positive timeout passes the check: a short history is left as it is.
    let short = conversation(turns: 3)
    #expect(
      try await summarize(timeout: .nanoseconds(1)).separatedResult(short, in: Make.context()) == short)
    #expect(behaviour.calls == 0)
  }

  @Test func `a retainedFraction that is not a number is refused, not turned into a size`() async throws {
    // NaN compares false with everything: a check written as "not <= 0 and not >= 1" would let it
    // through, and 10 × NaN cannot become a whole number of entries.
    let error = await #expect(throws: HistoryCompressionError.self) {
      try await modifier(.entries(10), fraction: .nan).separatedResult(
        conversation(turns: 3), in: Make.context())
    }
    #expect(error?.description == "summarizeHistory: retainedFraction is nan, it must be in (0, 1)")
  }

  @Test func `options default to half the threshold, 30 s to summarize, a minute to retry`() {
    let options = SummarizeHistory.Options()
    #expect(options.retainedFraction == 0.5)
    #expect(options.timeout == .seconds(30))
    #expect(options.retryDelay == .seconds(60))
  }

  @Test func `a compaction notes how many entries it summarized`() async throws {
    // The same 12 entries as above, threshold 10, fraction 0.75: the six entries p1 to r3 are
    // summarized, with no earlier summary to fold in.
    let context = Make.context()
    let result = try await modifier(.entries(10), fraction: 0.75).separatedResult(
      conversation(turns: 6), in: context)
    #expect(Array(result.ids.dropFirst(2)) == ["p4", "r4", "p5", "r5", "p6"])
    #expect(context.notes.filter { $0.kind == .information }.map(\.counts) == [[.entriesSummarized: 6]])
  }

  @Test func `the summarizer sees each tool call with its output`() async throws {
    // Instructions, a tool turn (p1, t1, c1-0, r1), turns 2 to 5 and p6: 14 entries over a
    // threshold of 10. The plan compacts when the 11th entry (r4) arrives, to at most
    // 10 × 0.75 = 7: instructions + summary + p3, r3, p4, r4 = 6 (from p2 it would be 8).
    // p5, r5 and p6 then make 9, under the threshold. The tool turn is summarized, so the
    // summarizer must see what the tool returned.
    let history = Transcript(
      entries: [Make.instructions(), Make.prompt("p1"), Make.calls("t1", ["c1-0"])]
        + [Make.output("c1-0", "light rain, 7°C"), Make.response("r1")]
        + (2...5).flatMap(Make.turn) + [Make.prompt("p6")])
    let result = try await modifier(.entries(10), fraction: 0.75).separatedResult(
      history, in: Make.context())
    #expect(Array(result.ids.dropFirst(2)) == ["p3", "r3", "p4", "r4", "p5", "r5", "p6"])
    let prompt = try #require(behaviour.prompts.first)
    #expect(prompt.contains("Assistant called the tool weather with "))
    #expect(prompt.contains("The tool weather returned: light rain, 7°C\n"))
  }

  @Test func `a summary is not reused for another summarizer's instructions`() async throws {
    let history = conversation(turns: 8)
    let terse = SummarizeHistory(
      threshold: .entries(10), model: FixedSummaryModel(behaviour: behaviour),
      tokenCounter: EstimatingTokenCounter(cache: TokenCountCache()),
      instructions: Instructions("Summarize tersely."),
      options: .init(store: store))
    let byDefault = try await modifier(.entries(10)).separatedResult(history, in: Make.context())
    let byTerse = try await terse.separatedResult(history, in: Make.context())
    // The same range, asked of a summarizer told otherwise: a second call, a second summary.
    #expect(behaviour.calls == 2)
    #expect(HistorySummary.summaryText(of: byDefault[1])?.hasPrefix("Summary #1 ") == true)
    #expect(HistorySummary.summaryText(of: byTerse[1])?.hasPrefix("Summary #2 ") == true)
  }

  @Test func `a summary is not reused when the summary already in the head is another`() async throws {
    var results: [Transcript] = []
    for liking in ["tea", "coffee"] {
      let old = HistorySummary.entry(summary: "The user likes \(liking).", postamble: "Carry on.")
      let history = Transcript(
        entries: [Make.instructions(), old] + (1..<8).flatMap(Make.turn) + [Make.prompt("p8")])
      results.append(try await modifier(.entries(10)).separatedResult(history, in: Make.context()))
    }
    #expect(behaviour.calls == 2)
    #expect(behaviour.prompts.count == 2)
    #expect(
      behaviour.prompts.last?.contains("The summary of the conversation so far:\n\nThe user likes coffee.")
        == true)
    #expect(HistorySummary.summaryText(of: results[1][1])?.hasPrefix("Summary #2 ") == true)
  }

  @Test func `a summary is not reused when an entry it stands for was rewritten under the same id`()
    async throws
  {
    // conversation(turns: 6) with r1 rewritten; threshold 10, fraction 0.75: p1 to r3 are
    // summarized (see above). The two texts share their first 12 characters, so their segment
    // ids ("s-answer r1 wa") are the same too: only the content tells them apart.
    var results: [Transcript] = []
    for answer in ["answer r1 was yes", "answer r1 was no"] {
      let history = Transcript(
        entries: [Make.instructions(), Make.prompt("p1"), Make.response("r1", answer)]
          + (2...5).flatMap(Make.turn) + [Make.prompt("p6")])
      results.append(
        try await modifier(.entries(10), fraction: 0.75).separatedResult(history, in: Make.context()))
    }
    #expect(behaviour.calls == 2)
    #expect(behaviour.prompts.last?.contains("answer r1 was no") == true)
    #expect(Array(results[1].ids.dropFirst(2)) == ["p4", "r4", "p5", "r5", "p6"])
    #expect(HistorySummary.summaryText(of: results[1][1])?.hasPrefix("Summary #2 ") == true)
  }

  @Test func `says again what it put back when the instructions change after an earlier compaction`()
    async throws
  {
    // The history of retainedThenToolRounds, over a threshold of 11 entries with a target of
    // 8: the compaction was made at an earlier generation, it summarizes p1 and p2's turns
    // and puts back o1's copy (2 entries). Only a change of the instructions says it again.
    let conversation = "p1"
    let prefixBreaks = PrefixBreakLog()  // not the shared one, which other tests fill up
    let copy = ["contextkit.retained.o1.calls", "contextkit.retained.o1"]
    struct Fields: Equatable {
      var names: [GenerationNote.Field: [String]]
      var counts: [GenerationNote.Field: Int]
    }
    func generation(instructions: String, after extra: [Transcript.Entry] = []) async throws -> [Fields] {
      let context = Make.context(round: 1)
      let modifier = SummarizeHistory(
        threshold: .entries(11), model: FixedSummaryModel(behaviour: behaviour),
        options: .init(retainedFraction: 0.75, store: store, prefixBreaks: prefixBreaks))
      let result = try await modifier.separatedResult(
        Transcript(entries: retainedThenToolRounds(instructions, conversation: conversation) + extra),
        in: context)
      #expect(Array(result.ids.dropFirst(2)) == copy + ["p3", "c3", "c"] + extra.map(\.id))
      #expect(!context.notes.contains { $0.kind == .historyRewritten })
      return context.notes.filter { !$0.names(.putBack).isEmpty }.map {
        Fields(names: $0.names, counts: $0.counts)
      }
    }
    let putBack = Fields(names: [.putBack: ["skill:style"]], counts: [.kept: 2])
    #expect(try await generation(instructions: "Be brief.") == [])
    #expect(try await generation(instructions: "Be brief. Use the style skill.") == [putBack])
    let nextRound = [Make.calls("c3b", ["d"]), Make.output("d")]
    #expect(try await generation(instructions: "Be brief. Use the style skill.", after: nextRound) == [])
  }

  @Test func `summarizeHistory with a token threshold counts its summary and never goes over`() async throws {
    // A summary of 80 words: more than the 62 set aside (a quarter of half of 500).
    let long = (0..<80).map { "s\($0)" }.joined(separator: " ")
    let summarizer = ScriptedLanguageModel(script: ModelScript((0..<8).map { _ in .text(long) }))
    let counter = WordTokenCounter(toolDefinitionTokens: 10)
    let profile = Profile { Instructions("Be brief.") }
      .summarizeHistory(
        tokenThreshold: 500, model: summarizer, tokenCounter: counter,
        options: .init(retryDelay: .seconds(600), store: SummaryStore()))
    let sent = try await SummaryPathTests.play(turns: 8, profile: profile)
    for (turn, transcript) in sent.enumerated() {
      let size = counter.tokenCounts(of: Array(transcript)).reduce(0, +)
      #expect(size <= 500, "turn \(turn + 1): \(size) tokens")
    }
    // Turn 5 (2 + 4 × 101 + 100 = 506 tokens) is cut to the current turn,
    // with the summary written in front of its prompt: instructions, one prompt.
    #expect(sent[4].count == 2)
    #expect(sent[4][1].containsHistorySummary)
    // The summary is committed, so later turns measure it at its real size:
    // 80 words, the 5-word heading and the 39-word postamble in front of
    // prompt 5's 100 make 224. Turns 6 and 7 fit (2 + 224 + 101 + 100 = 427
    // at turn 7); turn 8 (528) is cut to its own prompt again, after a new summary.
    #expect(sent[5].count == 4)
    #expect(sent[6].count == 6)
    #expect(sent[7].count == 2)
    #expect(sent[7][1].containsHistorySummary)
  }

  /// `summarizeHistory` uses a summary only when the history it builds fits the
  /// threshold: instructions, the summary, the context put back after the cut
  /// and the verbatim turns. Summaries of every length from none to far too
  /// long are tried; whatever the modifier chooses, the result must fit.
  @Suite("Summary fit with context put back", .timeLimit(.minutes(10))) struct Fit {
    /// A skill body (40 bytes) delivered in the first turn: a call and its output, marked
    /// as retained context, so a cut before it puts a copy back.
    private let delivery: [Transcript.Entry] =
      [Make.prompt("p1")]
      + retainedDelivery(
        callsID: "calls-style", callID: "call-style",
        body: .text(.init(id: "body", content: String(repeating: "b", count: 40)))) + [Make.response("r1")]

    private func tokens(_ transcript: Transcript, _ counter: EstimatingTokenCounter) -> Int {
      var total = 0
      for entry in transcript { total += counter.tokenCount(of: entry) }
      return total
    }

    @Test func `every summary length gives a history within the threshold, the put-back body counted`()
      async throws
    {
      let counter = EstimatingTokenCounter()
      let history = Transcript(
        entries: [Make.instructions()] + delivery + (2..<24).flatMap(Make.turn) + [Make.prompt("p24")])
      let threshold = 300
      #expect(tokens(history, counter) > threshold)
      var summarized = 0
      var fellBack = 0
      for length in stride(from: 0, through: 1_200, by: 4) {
        let summarizer = ScriptedLanguageModel(
          script: ModelScript([.text(String(repeating: "s", count: length))]))
        let modifier = SummarizeHistory(
          threshold: .tokens(threshold), model: summarizer, tokenCounter: counter,
          options: .init(retainedFraction: 0.5, store: SummaryStore()))
        let result = try await modifier.transformHistory(history, in: Make.context())
        let size = tokens(result, counter)
        #expect(size <= threshold, "a summary of \(length) bytes: \(size) tokens, \(result.map(\.id))")
        if result.contains(where: \.isHistorySummary) {
          summarized += 1
          #expect(
            result.contains { $0.retainedContextKey == "skill:style" },
            "\(length) bytes: the body is not back")
        } else {
          fellBack += 1
        }
      }
      // Both outcomes are reached: short summaries are used, long ones are not.
      #expect(summarized > 0)
      #expect(fellBack > 0)
    }
  }

  /// What a summarizer's answer becomes: its text without the spaces and
  /// newlines around it, and an answer of only whitespace is no summary.
  @Suite("A summarizer's answer", .timeLimit(.minutes(10))) struct SummarizerAnswer {
    func conversation(turns: Int) -> Transcript {
      Transcript(entries: [Make.instructions()] + (1..<turns).flatMap(Make.turn) + [Make.prompt("p\(turns)")])
    }

    func summarize(answering answer: String, in context: ProfileModifierContext) async throws -> Transcript {
      let modifier = SummarizeHistory(
        threshold: .entries(10), model: ScriptedLanguageModel(script: ModelScript([.text(answer)])),
        options: .init(store: SummaryStore()))
      return try await modifier.transformHistory(conversation(turns: 8), in: context)
    }

    @Test func `is kept without the whitespace around it`() async throws {
      let result = try await summarize(
        answering: "\n\n  The user asked seven questions.\n\nAll were answered. \t\n", in: Make.context())
      try #require(result.count > 1)
      #expect(
        HistorySummary.summaryText(of: result[1]) == "The user asked seven questions.\n\nAll were answered.")
    }

    @Test func `of only spaces and newlines is an empty summary: a rolling window is kept instead`()
      async throws
    {
      let context = Make.context()
      let result = try await summarize(answering: " \n\t\n  ", in: context)
      let window = try await RollingWindow(.entries(10)).transformHistory(
        conversation(turns: 8), in: Make.context())
      #expect(result == window)
      #expect(
        context.notes.filter { $0.kind == .fallback }.map(\.names) == [
          [.reason: ["the summarizer answered with an empty summary"], .unit: ["entries"]]
        ])
    }
  }
}
