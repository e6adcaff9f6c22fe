import Foundation
import HistoryCompression
import ModelSession
import TestSupport
import Testing

private func context() -> ProfileModifierContext {
  ProfileModifierContext(turnIndex: 0, round: 0, toolDefinitions: [], requestID: UUID().uuidString)
}

/// Instructions, 40 turns of a 10-word prompt and a 40-word answer, then a new prompt.
private func conversation() -> [Transcript.Entry] {
  var entries = [Make.instructions("You help.")]
  for turn in 0..<40 {
    entries.append(Make.prompt("p\(turn)", words(10, tag: "t\(turn)p")))
    entries.append(Make.response("r\(turn)", words(40, tag: "t\(turn)a")))
  }
  return entries + [Make.prompt("next", "next")]
}

private struct SummarizerDown: Error {}

/// The notes `compactingHistory` records say what it did: how many entries went,
/// and why a summary was given up.
@Suite("Compacting history notes", .timeLimit(.minutes(10))) struct CompactingHistoryNoteTests {
  @Test func `a compaction without a summarizer says how many entries it dropped and where verbatim starts`()
    async throws
  {
    // A budget one token short of the history: the compaction happens at this generation.
    let entries = conversation()
    let budget = EstimatingTokenCounter().tokenCounts(of: entries).reduce(0, +) - 1
    let modifierContext = context()
    let result = try await CompactingHistory(tokenBudget: budget, target: budget / 2, pinnedTokens: 0)
      .transformHistory(Transcript(entries: entries), in: modifierContext)
    // Everything between the instructions and the first kept entry left the history.
    let dropped = entries.count - result.count
    #expect(dropped > 0)
    #expect(result[1].id == entries[1 + dropped].id)
    let rewritten = modifierContext.notes.filter { $0.kind == .historyRewritten }
    #expect(rewritten.map(\.counts) == [[.entriesDropped: dropped]])
    #expect(rewritten.map(\.names) == [[.firstKeptEntry: [result[1].id]]])
  }

  @Test func `a compaction with a summarizer says how many entries it summarized`() async throws {
    let entries = conversation()
    let budget = EstimatingTokenCounter().tokenCounts(of: entries).reduce(0, +) - 1
    let modifierContext = context()
    let result = try await CompactingHistory(
      tokenBudget: budget, target: budget / 2, pinnedTokens: 0,
      model: ScriptedLanguageModel(script: ModelScript([.text("The user asked forty questions.")])),
      options: CompactingHistory.Options(store: SummaryStore())
    )
    .transformHistory(Transcript(entries: entries), in: modifierContext)
    // The instructions, one summary in place of the entries it covers, then the verbatim tail.
    #expect(result[1].isHistorySummary)
    let summarized = entries.count - (result.count - 1)
    #expect(summarized > 0)
    #expect(result[2].id == entries[1 + summarized].id)
    let rewritten = modifierContext.notes.filter { $0.kind == .historyRewritten }
    #expect(rewritten.map(\.counts) == [[.entriesSummarized: summarized]])
    #expect(rewritten.map(\.names) == [[.firstKeptEntry: [result[2].id]]])
  }

  @Test func `a compaction that keeps the first turns pinned says how many`() async throws {
    let entries = conversation()
    let budget = EstimatingTokenCounter().tokenCounts(of: entries).reduce(0, +) - 1
    let modifierContext = context()
    // The default pins the first turns, up to five eighths of the target.
    let result = try await CompactingHistory(tokenBudget: budget, target: budget / 2)
      .transformHistory(Transcript(entries: entries), in: modifierContext)
    // The result is the instructions, the pinned first entries, then a verbatim tail.
    let pinned = zip(result.entries, entries).prefix { $0 == $1 }.count - 1
    let verbatim = result.count - 1 - pinned
    #expect(pinned > 0 && verbatim > 0)
    let dropped = entries.count - result.count
    let first = entries[entries.count - verbatim].id
    let rewritten = modifierContext.notes.filter { $0.kind == .historyRewritten }
    #expect(rewritten.map(\.counts) == [[.entriesDropped: dropped, .pinnedEntries: pinned]])
    #expect(rewritten.map(\.names) == [[.firstKeptEntry: [first]]])
  }

  @Test func `a current turn alone over the budget is kept whole, with its size and the budget`() async throws
  {
    // "Help me." is 8 bytes, 2 + 4 tokens of framing; the prompt 800 bytes, 200 + 4: 210 in all.
    let entries = [
      Make.instructions("Help me."), Make.prompt("p0", "Hi."), Make.response("r0", "Hello."),
      Make.prompt("p1", String(repeating: "x", count: 800)),
    ]
    let modifierContext = context()
    let result = try await CompactingHistory(tokenBudget: 100, pinnedTokens: 0).transformHistory(
      Transcript(entries: entries), in: modifierContext)
    #expect(result.entries == [entries[0], entries[3]])
    #expect(
      modifierContext.notes.filter { $0.kind == .information }.map(\.counts) == [[.kept: 210, .budget: 100]])
  }

  /// The fallback notes of `compactingHistory` (budget 900) over `conversation()`
  /// when the summarizer answers with `answer`; the history it returns must hold no summary.
  private func fallbackNotes(summarizerAnswering answer: ScriptStep) async throws -> [GenerationNote] {
    let modifier = CompactingHistory(
      tokenBudget: 900, model: ScriptedLanguageModel(script: ModelScript([answer])),
      options: CompactingHistory.Options(store: SummaryStore()))
    let modifierContext = context()
    let result = try await modifier.transformHistory(Transcript(entries: conversation()), in: modifierContext)
    #expect(!result.contains { $0.isHistorySummary })
    return modifierContext.notes.filter { $0.kind == .fallback }
  }

  @Test func `a failing summarizer is named in a fallback note that says the turns were dropped`()
    async throws
  {
    let fallback = try await fallbackNotes(summarizerAnswering: .failure(SummarizerDown()))
    #expect(fallback.count == 1)
    #expect(fallback.first?.names(.reason).count == 1)
    #expect(fallback.first?.counts == [.budget: 900])
  }

  @Test func `a summary too long for the budget is given up, with its size and the budget`() async throws {
    // 2,000 words are far more than the 900-token budget.
    let fallback = try await fallbackNotes(summarizerAnswering: .text(words(2_000)))
    #expect(fallback.count == 1)
    #expect(fallback.first?.names.isEmpty == true)
    #expect(fallback.first?.counts[.budget] == 900)
    #expect((fallback.first?.counts[.summarySize] ?? 0) > 900)
  }
}
