import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// The generation notes the history modifiers record say what happened, with
/// the right numbers and entry ids in their fields, not only the right kind
/// (their messages are pinned in `History note messages`).
@Suite("History notes", .timeLimit(.minutes(10))) struct HistoryNoteTests {
  /// Instructions, turns 1 to `turns - 1` of a prompt and a response, then the prompt p`turns`.
  func conversation(turns: Int) -> Transcript {
    Transcript(entries: [Make.instructions()] + (1..<turns).flatMap(Make.turn) + [Make.prompt("p\(turns)")])
  }

  @Test func `a moved rolling window names its first entry and how many entries it drops`() async throws {
    // 12 entries: instructions, p1 r1 … p5 r5, p6. The previous generation saw up to p5:
    // a window of 6 started at p3 then; with p6 it starts at p4, dropping p1 r1 p2 r2 p3 r3.
    let context = Make.context()
    let result = try await RollingWindow(.entries(6)).transformHistory(conversation(turns: 6), in: context)
    #expect(result.ids == ["instructions", "p4", "r4", "p5", "r5", "p6"])
    let notes = context.notes.filter { $0.kind == .historyRewritten }
    #expect(notes.map(\.names) == [[.firstKeptEntry: ["p4"]]])
    #expect(notes.map(\.counts) == [[.entriesDropped: 6]])
  }

  @Test func `dropping completed tool calls names the first entry that left`() async throws {
    // instructions, p1, t1 (the call), c1-0 (its output), r1, p2: t1 and c1-0 go.
    let context = Make.context()
    let history = Transcript(entries: [Make.instructions()] + Make.toolTurn(1) + [Make.prompt("p2")])
    let result = try await DroppingCompletedToolCalls().transformHistory(history, in: context)
    #expect(result.ids == ["instructions", "p1", "r1", "p2"])
    #expect(context.notes.map(\.kind) == [.historyRewritten])
    #expect(context.notes.map(\.names) == [[.firstDroppedEntry: ["t1"]]])
  }

  @Test func `retained context dropped with its completed call is named with its key`() async throws {
    let body = Transcript.Entry.toolOutput(
      Transcript.ToolOutput(
        id: "b1", toolName: "activate_skill", segments: [Make.text("Use guard.")],
        metadata: [RetainedContext.metadataKey: GeneratedContent("skill:swift-style")]))
    let history = Transcript(entries: [
      Make.instructions(), Make.prompt("p1"), Make.calls("t1", ["b1"]), body, Make.response("r1"),
      Make.prompt("p2"),
    ])
    let context = Make.context()
    _ = try await DroppingCompletedToolCalls().transformHistory(history, in: context)
    #expect(
      context.notes.filter { $0.kind == .contextLeftOut }.map(\.names) == [[.keys: ["skill:swift-style"]]])
  }

  @Test func `a summarizing compaction says how many entries became the summary and where verbatim starts`()
    async throws
  {
    // 12 entries over a threshold of 10 with a fraction of 0.75: kept are instructions,
    // the summary and p4 r4 p5 r5 p6; the 6 entries p1 … r3 became the summary.
    let modifier = SummarizeHistory(
      threshold: .entries(10), model: FixedSummaryModel(behaviour: FixedSummaryModel.Behaviour()),
      tokenCounter: EstimatingTokenCounter(cache: TokenCountCache()),
      options: .init(retainedFraction: 0.75, store: SummaryStore()))
    let context = Make.context()
    let result = try await modifier.separatedResult(conversation(turns: 6), in: context)
    #expect(Array(result.ids.dropFirst(2)) == ["p4", "r4", "p5", "r5", "p6"])
    let rewritten = context.notes.filter { $0.kind == .historyRewritten }
    #expect(rewritten.map(\.names) == [[.firstKeptEntry: ["p4"]]])
    #expect(rewritten.map(\.counts) == [[.entriesSummarized: 6]])
    #expect(context.notes.filter { $0.kind == .information }.map(\.counts) == [[.entriesSummarized: 6]])
  }

  @Test func `a summary that folds in the previous one says so`() async throws {
    let old = HistorySummary.entry(summary: "The user likes tea.", postamble: "Carry on.")
    let history = Transcript(
      entries: [Make.instructions(), old] + (1..<8).flatMap(Make.turn) + [Make.prompt("p8")])
    let modifier = SummarizeHistory(
      threshold: .entries(10), model: FixedSummaryModel(behaviour: FixedSummaryModel.Behaviour()),
      tokenCounter: EstimatingTokenCounter(cache: TokenCountCache()), options: .init(store: SummaryStore()))
    let context = Make.context()
    _ = try await modifier.transformHistory(history, in: context)
    let summarized = context.notes.filter { $0.kind == .information }
    #expect(summarized.count == 1)
    #expect(summarized.first?.counts[.summariesFolded] == 1)
  }

  @Test func `compactingHistory notes a current turn over the budget, not one that fills it exactly`()
    async throws
  {
    // One token per byte, no framing: "Be brief." is 9 tokens, p1 100 and r1 2, then the
    // current prompt p2. Over the budget of 100, so the older turn goes; what is kept is the
    // instructions and p2.
    let counter = EstimatingTokenCounter(
      bytesPerToken: 1, imageTokenCount: 0, framingTokenCount: 0, cache: TokenCountCache())
    func notes(currentPrompt tokens: Int) async throws -> [[GenerationNote.Field: Int]] {
      let context = Make.context()
      let history = Transcript(entries: [
        Make.instructions("Be brief."), Make.prompt("p1", String(repeating: "a", count: 100)),
        Make.response("r1", "ok"), Make.prompt("p2", String(repeating: "b", count: tokens)),
      ])
      let result = try await CompactingHistory(
        tokenBudget: 100, pinnedTokens: 0, tokenCounter: counter,
        options: CompactingHistory.Options(prefixBreaks: PrefixBreakLog())
      ).transformHistory(history, in: context)
      #expect(result.ids == ["instructions", "p2"])
      return context.notes.filter { $0.kind == .information }.map(\.counts)
    }
    // 9 + 91 = 100: exactly the budget, nothing to say.
    #expect(try await notes(currentPrompt: 91) == [])
    // 9 + 92 = 101: one over, kept whole and said.
    #expect(try await notes(currentPrompt: 92) == [[.kept: 101, .budget: 100]])
  }

  @Test func `a failed summary names the rolling window kept instead`() async throws {
    let behaviour = FixedSummaryModel.Behaviour()
    behaviour.fails = true
    let modifier = SummarizeHistory(
      threshold: .entries(10), model: FixedSummaryModel(behaviour: behaviour),
      options: .init(store: SummaryStore()))
    let context = Make.context()
    _ = try await modifier.transformHistory(conversation(turns: 8), in: context)
    let fallback = context.notes.filter { $0.kind == .fallback }
    #expect(fallback.count == 1)
    #expect(fallback.first?.names(.reason).count == 1)
    #expect(fallback.first?.names(.unit) == ["entries"])
    #expect(fallback.first?.counts == [.budget: 10])
  }
  @Test func `a summary too large for the threshold is named as such, in tokens`() async throws {
    // The summarizer answers 4,000 bytes, about 1,000 tokens: more than the whole threshold.
    let modifier = SummarizeHistory(
      threshold: .tokens(60),
      model: ScriptedLanguageModel(script: ModelScript([.text(String(repeating: "x", count: 4_000))])),
      tokenCounter: EstimatingTokenCounter(cache: TokenCountCache()), options: .init(store: SummaryStore()))
    let context = Make.context()
    let result = try await modifier.transformHistory(conversation(turns: 8), in: context)
    #expect(!result.contains { $0.containsHistorySummary })
    let fallback = context.notes.filter { $0.kind == .fallback }
    #expect(fallback.count == 1)
    #expect(fallback.first?.names == [.unit: ["tokens"]])
    #expect(fallback.first?.counts[.budget] == 60)
    #expect((fallback.first?.counts[.summarySize] ?? 0) > 60)
  }
}
