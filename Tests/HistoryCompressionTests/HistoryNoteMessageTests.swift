import ModelSession
import Testing

@testable import HistoryCompression

/// The messages of the notes the history modifiers record, each rendered from
/// its fields and checked whole; the behaviour tests (`History notes`,
/// `Compacting history notes`) compare the fields.
@Suite("History note messages", .timeLimit(.minutes(10))) struct HistoryNoteMessageTests {
  @Test func `a moved window names its first entry and how many entries it drops`() {
    #expect(
      HistoryNote.windowMoved(source: "rollingWindow", firstKeptEntry: "p4", dropped: 6).message
        == "the window moved: it now starts at entry p4 and drops 6 older entries")
  }

  @Test
  func `a compaction says how many entries went, how, after how many pinned, and where verbatim starts`() {
    #expect(
      HistoryNote.compacted(source: "c", count: 12, summarized: false, pinned: 0, firstKeptEntry: "p9")
        .message
        == "compacted: 12 entries dropped; the history is verbatim from entry p9")
    #expect(
      HistoryNote.compacted(source: "c", count: 12, summarized: true, pinned: 4, firstKeptEntry: "p9").message
        == "compacted: 12 entries summarized after the 4 pinned ones; the history is verbatim from entry p9")
    #expect(
      HistoryNote.compacted(source: "s", count: 6, summarized: true, pinned: 0, firstKeptEntry: "p4").message
        == "compacted: 6 entries summarized; the history is verbatim from entry p4")
    #expect(
      HistoryNote.fittedToWindow(source: "c", budget: 300, firstKeptEntry: "p7").message
        == "compacted to fit the model's window: at most 300 tokens of history, verbatim from entry p7")
  }

  @Test func `a summary made says how many entries it covers and whether it folds in the previous one`() {
    #expect(
      HistoryNote.summaryMade(source: "s", count: 6, foldedPrevious: false).message == "summarized 6 entries")
    #expect(
      HistoryNote.summaryMade(source: "s", count: 6, foldedPrevious: true).message
        == "summarized 6 entries, folding in the previous summary")
  }

  @Test func `a current turn over the budget or the window gives both sizes`() {
    #expect(
      HistoryNote.currentTurnOverBudget(source: "c", kept: 101, budget: 100, unit: nil).message
        == "the instructions and the current turn take 101 tokens, more than the budget of 100; "
        + "kept the current turn whole")
    #expect(
      HistoryNote.currentTurnOverBudget(source: "r", kept: 7, budget: 6, unit: "entries").message
        == "the instructions and the current turn take 7 entries, more than the window of 6 entries; "
        + "kept the current turn whole")
  }

  @Test func `a fallback says why and what was kept instead`() {
    #expect(
      HistoryNote.droppedInstead(source: "c", reason: "down", summaryTokens: nil, budget: 900).message
        == "the summarizer failed (down); dropped the older turns instead")
    #expect(
      HistoryNote.droppedInstead(source: "c", reason: nil, summaryTokens: 2_600, budget: 900).message
        == "the summary takes 2600 tokens, which would put the history over the budget of 900; "
        + "dropped the older turns instead")
    #expect(
      HistoryNote.windowInstead(source: "s", reason: "down", summarySize: nil, window: 10, unit: "entries")
        .message
        == "the summarizer failed (down); kept a rolling window of 10 entries instead")
    #expect(
      HistoryNote.windowInstead(source: "s", reason: nil, summarySize: 1_000, window: 60, unit: "tokens")
        .message
        == "the summary takes 1000 tokens, which would put the history over the threshold of 60 tokens; "
        + "kept a rolling window of 60 tokens instead")
  }

  @Test func `dropped tool calls name the first entry that left, and retained context its key`() {
    #expect(
      HistoryNote.completedToolCallsDropped(source: "d", firstDroppedEntry: "t1").message
        == "dropped the completed tool calls of the previous turn, from entry t1")
    #expect(
      HistoryNote.leftWithToolCall(source: "d", key: "skill:swift-style").message
        == "\"skill:swift-style\" left the history with its completed tool call; the tool that delivered it "
        + "delivers it again when called")
  }
}
