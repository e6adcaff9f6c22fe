import ModelSession
import Testing

@testable import CacheAnalysis

/// A cause's detail is made from the fields of the note behind it, never
/// from its message: the texts, checked whole.
@Suite("Note cause detail texts", .timeLimit(.minutes(10))) struct NoteCauseDetailTests {
  func note(
    _ kind: GenerationNote.Kind, names: [GenerationNote.Field: [String]] = [:],
    counts: [GenerationNote.Field: Int] = [:]
  ) -> GenerationNote {
    GenerationNote(source: "s", kind: kind, message: "(not read)", names: names, counts: counts)
  }

  @Test func `rewritten instructions name the skills switched, then the catalog's changes`() {
    #expect(
      NoteCauseDetail.instructions(
        note(
          .instructionsChanged,
          names: [.activated: ["alpha", "zeta"], .deactivated: ["beta"], .tools: ["x"]]))
        == "activated alpha, zeta; deactivated beta")
    #expect(
      NoteCauseDetail.instructions(
        note(.instructionsChanged, names: [.added: ["delta"], .removed: ["beta"], .edited: ["alpha"]]))
        == "catalog added delta; removed beta; description changed for alpha")
    #expect(NoteCauseDetail.instructions(note(.instructionsChanged)) == nil)
  }

  @Test func `rewritten history says what went, after what was pinned, and where verbatim starts`() {
    #expect(
      NoteCauseDetail.history(
        note(.historyRewritten, names: [.firstKeptEntry: ["p4"]], counts: [.entriesDropped: 6]))
        == "dropped 6 entries; verbatim from entry p4")
    #expect(
      NoteCauseDetail.history(
        note(
          .historyRewritten, names: [.firstKeptEntry: ["p9"]],
          counts: [.entriesSummarized: 1, .pinnedEntries: 4]))
        == "summarized 1 entry after 4 pinned; verbatim from entry p9")
    #expect(
      NoteCauseDetail.history(
        note(.historyRewritten, names: [.firstKeptEntry: ["p7"]], counts: [.budget: 300]))
        == "fitted to 300 tokens; verbatim from entry p7")
    #expect(
      NoteCauseDetail.history(note(.historyRewritten, names: [.firstDroppedEntry: ["t1"]]))
        == "completed tool calls dropped from entry t1")
    #expect(NoteCauseDetail.history(note(.historyRewritten)) == nil)
  }
}
