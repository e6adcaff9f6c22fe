import ModelSession
import Testing

/// The notes a modifier records for what a cut put back and what it left out:
/// an `information` note naming the keys put back and their size, and one
/// `contextLeftOut` note per item, naming its key, its tokens and why.
@Suite("Reattachment notes", .timeLimit(.minutes(10))) struct ReattachmentNoteTests {
  // Each copy is 15 + bytes / 4 tokens: a 115 (400 bytes), b 215 (800 bytes).
  let history =
    delivery("a", key: "skill:a", bytes: 400) + delivery("b", key: "skill:b", bytes: 800)
    + delivery("next", key: "skill:next", bytes: 4)

  func notes(_ retention: ContextRetention, room: Int, budget: Int = 100_000) async throws -> [Fields] {
    let ledger = try await RetainedContextLedger(
      history, unit: .tokens, counter: EstimatingTokenCounter(), retention: retention)
    // Cut before the last delivery (index 6): a and b are candidates, most recent first.
    let reattachment = ledger.reattachment(before: 6, visibleUntil: 9, room: room, budget: budget)
    let context = ProfileModifierContext(turnIndex: 0, round: 0, toolDefinitions: [], requestID: "notes")
    reattachment.record(in: context, source: "mine")
    #expect(context.notes.allSatisfy { $0.source == "mine" })
    return context.notes.map { Fields(kind: $0.kind, names: $0.names, counts: $0.counts) }
  }

  /// A note's data, without its message (pinned in `Generation note texts`).
  struct Fields: Equatable {
    var kind: GenerationNote.Kind
    var names: [GenerationNote.Field: [String]]
    var counts: [GenerationNote.Field: Int]
  }

  /// The note for `"skill:a"` put back (115 tokens).
  let putBackA = Fields(kind: .information, names: [.putBack: ["skill:a"]], counts: [.kept: 115])

  /// The note for `"skill:b"` (215 tokens) left out for `reason`, with its number.
  func leftOutB(_ reason: String, _ bound: Int) -> Fields {
    Fields(
      kind: .contextLeftOut, names: [.keys: ["skill:b"], .reason: [reason]],
      counts: [.tokens: 215, .budget: bound])
  }

  @Test func `an item with no room left is named with the room there was`() async throws {
    // A room of 120: b (215, the most recent) leaves room for only 120; a (115) then fits.
    #expect(
      try await notes(ContextRetention(), room: 120) == [putBackA, leftOutB("noRoom", 120)])
  }

  @Test func `an item past the share of what the cut keeps is named with the share`() async throws {
    // A quarter of a 600-token budget is 150: b (215, the most recent) passes it; a (115) then fits.
    #expect(
      try await notes(ContextRetention(), room: 1_000, budget: 600) == [putBackA, leftOutB("overShare", 150)])
  }

  @Test func `an item over the per-item limit is named with the limit`() async throws {
    #expect(
      try await notes(ContextRetention(itemTokenLimit: 150), room: 1_000) == [
        putBackA, leftOutB("overItemLimit", 150),
      ])
  }
}
