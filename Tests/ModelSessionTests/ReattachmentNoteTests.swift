import ModelSession
import Testing

/// The notes a modifier records for what a cut put back and what it left out:
/// an `information` note naming the keys put back and their size, and one
/// `contextLeftOut` note per item, naming its key, its tokens and why.
@Suite(.timeLimit(.minutes(10))) struct `Reattachment notes` {
  // Each copy is 15 + bytes / 4 tokens: a 115 (400 bytes), b 215 (800 bytes).
  let history =
    delivery("a", key: "skill:a", bytes: 400) + delivery("b", key: "skill:b", bytes: 800)
    + delivery("next", key: "skill:next", bytes: 4)

  func notes(_ retention: ContextRetention, room: Int, budget: Int = 100_000) async throws -> [String] {
    let ledger = try await RetainedContextLedger(
      history, unit: .tokens, counter: EstimatingTokenCounter(), retention: retention)
    // Cut before the last delivery (index 6): a and b are candidates, most recent first.
    let reattachment = ledger.reattachment(before: 6, visibleUntil: 9, room: room, budget: budget)
    let context = ProfileModifierContext(turnIndex: 0, round: 0, toolDefinitions: [], requestID: "notes")
    reattachment.record(in: context, source: "mine")
    #expect(context.notes.allSatisfy { $0.source == "mine" })
    return context.notes.map { "\($0.kind.rawValue): \($0.message)" }
  }

  @Test func `an item with no room left is named with the room there was`() async throws {
    // A room of 120: b (215, the most recent) leaves room for only 120; a (115) then fits.
    #expect(
      try await notes(ContextRetention(), room: 120) == [
        "information: put back after the cut: \"skill:a\" (115 of the budget)",
        "contextLeftOut: \"skill:b\" (215 tokens) was not put back after the cut: "
          + "the history after the cut leaves room for only 120 more",
      ])
  }

  @Test func `an item past the share of what the cut keeps is named with the share`() async throws {
    // A quarter of a 600-token budget is 150: b (215, the most recent) passes it; a (115) then fits.
    #expect(
      try await notes(ContextRetention(), room: 1_000, budget: 600) == [
        "information: put back after the cut: \"skill:a\" (115 of the budget)",
        "contextLeftOut: \"skill:b\" (215 tokens) was not put back after the cut: "
          + "the re-attached context would pass its share of what the cut keeps (150)",
      ])
  }

  @Test func `an item over the per-item limit is named with the limit`() async throws {
    #expect(
      try await notes(ContextRetention(itemTokenLimit: 150), room: 1_000) == [
        "information: put back after the cut: \"skill:a\" (115 of the budget)",
        "contextLeftOut: \"skill:b\" (215 tokens) was not put back after the cut: "
          + "it is larger than the limit of 150 tokens for one item",
      ])
  }
}
