import HistoryCompression
import ModelSession
import TestSupport
import Testing

@Suite("Dropping completed tool calls", .timeLimit(.minutes(10))) struct DroppingCompletedToolCallsTests {
  @Test func `drops the calls and outputs of answered earlier turns`() async throws {
    let history = Transcript(
      entries: [Make.instructions()] + Make.toolTurn(1, callCount: 2) + Make.turn(2) + Make.toolTurn(3) + [
        Make.prompt("p4")
      ])
    let result = try await DroppingCompletedToolCalls().transformHistory(history, in: Make.context())
    #expect(result.ids == ["instructions", "p1", "r1", "p2", "r2", "p3", "r3", "p4"])
  }

  @Test func `keeps the calls of the current tool loop`() async throws {
    let history = Transcript(
      entries: [Make.instructions()] + Make.toolTurn(1) + [
        Make.prompt("p2"), Make.calls("t2", ["x", "y"]), Make.output("x"), Make.output("y"),
        Make.response("mid"),
        Make.calls("t2b", ["z"]), Make.output("z"),
      ])
    let result = try await DroppingCompletedToolCalls().transformHistory(history, in: Make.context(round: 2))
    #expect(result.ids == ["instructions", "p1", "r1", "p2", "t2", "x", "y", "mid", "t2b", "z"])
  }

  @Test func `keeps a call whose output is missing, and so never leaves an orphan`() async throws {
    let history = Transcript(entries: [
      Make.instructions(), Make.prompt("p1"), Make.calls("t1", ["a", "b"]), Make.output("a"),
      Make.response("r1"),
      Make.prompt("p2"),
    ])
    let result = try await DroppingCompletedToolCalls().transformHistory(history, in: Make.context())
    #expect(result == history)
  }

  @Test func `drops an answered earlier call whose output is retained context, and names what left`()
    async throws
  {
    let body = Transcript.Entry.toolOutput(
      Transcript.ToolOutput(
        id: "skill", toolName: "activate_skill", segments: [Make.text("Use guard.")],
        metadata: [RetainedContext.metadataKey: GeneratedContent("skill:swift-style")]))
    let history = Transcript(entries: [
      Make.instructions(), Make.prompt("p1"), Make.calls("t1", ["skill"]), body, Make.calls("t1b", ["w"]),
      Make.output("w"), Make.response("r1"), Make.prompt("p2"),
    ])
    let context = Make.context()
    let result = try await DroppingCompletedToolCalls().transformHistory(history, in: context)
    #expect(result.ids == ["instructions", "p1", "r1", "p2"])
    #expect(context.notes.map(\.kind) == [.historyRewritten, .contextLeftOut])
    #expect(context.notes.last?.names == [.keys: ["skill:swift-style"]])
  }

  @Test func `keeps a copy of retained context that another modifier put back after its cut`() async throws {
    let copy = Transcript.Entry.toolOutput(
      Transcript.ToolOutput(
        id: "copy", toolName: "activate_skill", segments: [Make.text("Use guard.")],
        metadata: [
          RetainedContext.metadataKey: GeneratedContent("skill:swift-style"),
          RetainedContext.reattachedMetadataKey: GeneratedContent(kind: .bool(true)),
        ]))
    let history = Transcript(
      entries: [Make.instructions(), Make.calls("t0", ["copy"]), copy] + Make.toolTurn(1) + [
        Make.prompt("p2")
      ])
    let context = Make.context()
    let result = try await DroppingCompletedToolCalls().transformHistory(history, in: context)
    #expect(result.ids == ["instructions", "t0", "copy", "p1", "r1", "p2"])
    #expect(!context.notes.contains { $0.kind == .contextLeftOut })
  }

  @Test func `keeps calls that no response followed`() async throws {
    let history = Transcript(entries: [
      Make.instructions(), Make.prompt("p1"), Make.calls("t1", ["a"]), Make.output("a"), Make.prompt("p2"),
    ])
    let result = try await DroppingCompletedToolCalls().transformHistory(history, in: Make.context())
    #expect(result == history)
  }

  @Test func `notes a rewrite when the previous turn's calls leave the history, and only then`() async throws
  {
    let base = [Make.instructions()] + Make.toolTurn(1)
    let newTurn = Make.context()
    _ = try await DroppingCompletedToolCalls().transformHistory(
      Transcript(entries: base + [Make.prompt("p2")]), in: newTurn)
    #expect(newTurn.notes.map(\.kind) == [.historyRewritten])
    let laterRound = Make.context(round: 1)
    _ = try await DroppingCompletedToolCalls().transformHistory(
      Transcript(entries: base + [Make.prompt("p2"), Make.calls("t2", ["q"]), Make.output("q")]),
      in: laterRound)
    #expect(laterRound.notes.isEmpty)
  }

  @Test func `leaves a history without tool calls unchanged`() async throws {
    let history = Transcript(
      entries: [Make.instructions()] + (1...3).flatMap(Make.turn) + [Make.prompt("p4")])
    let result = try await DroppingCompletedToolCalls().transformHistory(history, in: Make.context())
    #expect(result == history)
  }
}
