import ContextKitDemo
import ModelSession
import TestSupport
import Testing

/// The benchmark's baseline reproduces the companion package's window, defects
/// included: a plain suffix of the entries.
@Suite("Companion rolling window baseline", .timeLimit(.minutes(10)))
struct CompanionRollingWindowBaselineTests {
  @Test func `it keeps a plain suffix of the entries, dropping the instructions, and says so`() async throws {
    // 1 instructions entry + 2 turns of 2 entries + a tool turn of 4 entries + a prompt = 10 entries.
    let history = Transcript(
      entries: [Make.instructions()] + Make.turn(1) + Make.turn(2) + Make.toolTurn(3) + [Make.prompt("p4")])
    let context = Make.context()
    let kept = try await CompanionRollingWindowBaseline(entryCount: 3).transformHistory(history, in: context)
    // The last 3 of the 10: no instructions entry, and a tool output without its call.
    #expect(kept.ids == ["c3-0", "r3", "p4"])
    #expect(
      context.notes.map(\.description) == [
        "baseline.rollingWindow(entries:) (historyRewritten): kept the last 3 of 10 entries"
      ])
  }

  @Test func `a history within the window passes through without a note`() async throws {
    let history = Transcript(entries: [Make.instructions()] + Make.turn(1))
    let context = Make.context()
    let kept = try await CompanionRollingWindowBaseline(entryCount: 3).transformHistory(history, in: context)
    #expect(kept == history)
    #expect(context.notes.isEmpty)
  }

  @Test func `a window below one entry is refused with its count`() async throws {
    let history = Transcript(entries: [Make.instructions()] + Make.turn(1))
    let error = await #expect(throws: CompanionRollingWindowBaseline.InvalidCount.self) {
      try await CompanionRollingWindowBaseline(entryCount: 0).transformHistory(history, in: Make.context())
    }
    #expect(error?.description == "baseline rollingWindow(entries: 0): the count must be at least 1")
  }
}
