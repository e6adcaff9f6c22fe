import CacheAnalysis
import ModelSession
import TestSupport
import Testing

/// Which names a cause's detail lists, in which order, and which of several
/// notes names the cause, from hand-built records.
@Suite("Cause detail order", .timeLimit(.minutes(10))) struct CauseDetailOrderTests {
  @Test func `a tools change names the added tools in list order, then the removed ones`() async throws {
    let before = [toolDefinition("c"), toolDefinition("keep")]
    let after = [toolDefinition("keep"), toolDefinition("zeta"), toolDefinition("alpha")]
    let first = record(
      sent: [instructionsEntry("You help.", tools: before), promptEntry("a")], tools: before,
      output: [responseEntry("x")])
    let second = record(
      sent: [
        instructionsEntry("You help.", tools: after), promptEntry("a"), responseEntry("x"), promptEntry("b"),
      ],
      tools: after, turn: 1)
    let cause = try await reports([first, second])[1].cause
    #expect(cause.kind == .toolsChanged)
    #expect(cause.detail == "the tool list added zeta, alpha; removed c")
  }

  @Test func `a tools change names the toolsChanged note's source even after an instructions note`()
    async throws
  {
    let before = [toolDefinition("keep")]
    let after = [toolDefinition("keep"), toolDefinition("search")]
    let first = record(
      sent: [instructionsEntry("You help.", tools: before), promptEntry("a")], tools: before,
      output: [responseEntry("x")])
    let second = record(
      sent: [
        instructionsEntry("You help more.", tools: after), promptEntry("a"), responseEntry("x"),
        promptEntry("b"),
      ],
      tools: after,
      notes: [
        GenerationNote(source: "skills", kind: .instructionsChanged, message: "activated tone"),
        GenerationNote(source: "searchGate", kind: .toolsChanged, message: "enabled search"),
      ], turn: 1)
    let cause = try await reports([first, second])[1].cause
    #expect(
      cause
        == CacheImpactCause(kind: .toolsChanged, source: "searchGate", detail: "the tool list added search"))
    // Without a toolsChanged note, no source is named: an instructions note is not about the tools.
    var instructionsOnly = second
    instructionsOnly.notes.removeLast()
    let unnamed = try await reports([first, instructionsOnly])[1].cause
    #expect(unnamed.source == nil)
  }

  @Test func `a record without stages takes its last historyRewritten note as the cause`() async throws {
    let first = record(
      sent: [instructionsEntry("You help."), promptEntry("a")], output: [responseEntry("x")])
    let second = record(
      sent: [instructionsEntry("You help."), promptEntry("summary"), promptEntry("b")],
      notes: [
        GenerationNote(
          source: "rollingWindow", kind: .historyRewritten, message: "(not read)",
          counts: [.entriesDropped: 2]),
        GenerationNote(source: "skills", kind: .instructionsChanged, message: "unrelated"),
        GenerationNote(
          source: "summarizeHistory", kind: .historyRewritten, message: "(not read)",
          names: [.firstKeptEntry: ["p3"]], counts: [.entriesSummarized: 2]),
      ], turn: 1)
    let cause = try await reports([first, second])[1].cause
    #expect(
      cause
        == CacheImpactCause(
          kind: .historyRewritten, source: "summarizeHistory",
          detail: "summarized 2 entries; verbatim from entry p3"))
  }

  @Test func `rewritten instructions take the first instructionsChanged note as the cause`() async throws {
    let first = record(
      sent: [instructionsEntry("Be brief."), promptEntry("a")], output: [responseEntry("x")])
    let second = record(
      sent: [instructionsEntry("Be warm."), promptEntry("a"), responseEntry("x"), promptEntry("b")],
      notes: [
        GenerationNote(
          source: "skills", kind: .instructionsChanged, message: "(not read)", names: [.activated: ["tone"]]),
        GenerationNote(
          source: "app", kind: .instructionsChanged, message: "(not read)", names: [.activated: ["terse"]]),
      ], turn: 1)
    let cause = try await reports([first, second])[1].cause
    #expect(cause == CacheImpactCause(kind: .instructionsChanged, source: "skills", detail: "activated tone"))
  }

  @Test
  func `a note without fields (an older record, an app's own note) gives the plain detail, not its message`()
    async throws
  {
    let first = record(
      sent: [instructionsEntry("Be brief."), promptEntry("a")], output: [responseEntry("x")])
    let second = record(
      sent: [instructionsEntry("Be warm."), promptEntry("a"), responseEntry("x"), promptEntry("b")],
      notes: [GenerationNote(source: "skills", kind: .instructionsChanged, message: "activated tone")],
      turn: 1)
    let cause = try await reports([first, second])[1].cause
    #expect(
      cause
        == CacheImpactCause(
          kind: .instructionsChanged, source: "skills", detail: "the instructions were rewritten"))
  }
}
