import ModelSession
import Testing

@Suite("Retained context ledger", .timeLimit(.minutes(10))) struct RetainedContextLedgerTests {
  // Each copy: a call entry (4 framing, 4 for the call, 7 for its name and
  // arguments) and an output entry (4 framing + bytes / 4): 15 + bytes / 4 tokens.
  let history =
    delivery("a", key: "skill:a", bytes: 400) + delivery("b", key: "skill:b", bytes: 800)
    + delivery("c", key: nil, bytes: 40) + delivery("a2", key: "skill:a", bytes: 400)
    + delivery("d", key: "skill:d", bytes: 4_000)

  func ledger(_ retention: ContextRetention = ContextRetention()) async throws -> RetainedContextLedger {
    try await RetainedContextLedger(
      history, unit: .tokens, counter: EstimatingTokenCounter(), retention: retention)
  }

  @Test func `the latest delivery of each key comes back once, oldest first, within the caps`() async throws {
    // Cut before the last turn (index 12): a (latest at 11), b (5) are candidates; d is kept.
    let back = try await ledger().reattachment(before: 12, visibleUntil: 15, room: 1_000, budget: 2_000)
    #expect(back.keys == ["skill:b", "skill:a"])
    #expect(back.size == (15 + 200) + (15 + 100))
    #expect(back.entries.count == 4)
    #expect(back.entries[3].id == "contextkit.retained.a2")
    #expect(back.leftOut.isEmpty)
  }

  @Test func `the most recent comes first when the share is short, and the rest is named`() async throws {
    // A share of 150 tokens: a (115, most recent) fits, b (215) does not.
    let back = try await ledger().reattachment(before: 12, visibleUntil: 15, room: 1_000, budget: 600)
    #expect(back.keys == ["skill:a"])
    #expect(back.leftOut.map(\.key) == ["skill:b"])
    #expect(back.leftOut.first?.reason == .overShare(share: 150))
    // The share is rounded down: a quarter of 603 is 150.75, so 150 tokens.
    let odd = try await ledger().reattachment(before: 12, visibleUntil: 15, room: 1_000, budget: 603)
    #expect(odd.leftOut.first?.reason == .overShare(share: 150))
  }

  @Test func `an item exactly filling the share or the room comes back, one token less leaves it out`()
    async throws
  {
    let full = try await ledger()
    // A quarter of 460 is 115, exactly a's copy; of 459 it is 114.75, so 114.
    let atShare = full.reattachment(before: 12, visibleUntil: 15, room: 1_000, budget: 460)
    #expect(atShare.keys == ["skill:a"])
    #expect(atShare.leftOut.map(\.reason) == [.overShare(share: 115)])
    let underShare = full.reattachment(before: 12, visibleUntil: 15, room: 1_000, budget: 459)
    #expect(underShare.keys.isEmpty)
    #expect(underShare.leftOut.map(\.reason) == [.overShare(share: 114), .overShare(share: 114)])
    // A room of exactly 115 takes a; of 114 it takes nothing (the share, 500, is not the limit).
    let atRoom = full.reattachment(before: 12, visibleUntil: 15, room: 115, budget: 2_000)
    #expect(atRoom.keys == ["skill:a"])
    #expect(atRoom.leftOut.map(\.reason) == [.noRoom(room: 0)])
    let underRoom = full.reattachment(before: 12, visibleUntil: 15, room: 114, budget: 2_000)
    #expect(underRoom.keys.isEmpty)
    #expect(underRoom.leftOut.map(\.reason) == [.noRoom(room: 114), .noRoom(room: 114)])
  }

  @Test func `an item over the per-item limit or without room is left out`() async throws {
    let limited = try await ledger(ContextRetention(itemTokenLimit: 150))
    let back = limited.reattachment(before: 15, visibleUntil: 15, room: 1_000, budget: 100_000)
    #expect(back.keys == ["skill:a"])
    #expect(Set(back.leftOut.map(\.key)) == ["skill:b", "skill:d"])
    let tight = try await ledger().reattachment(before: 12, visibleUntil: 15, room: 120, budget: 2_000)
    #expect(tight.keys == ["skill:a"])
    #expect(tight.leftOut.first?.reason == .noRoom(room: 5))
  }

  @Test func `an item exactly at the per-item limit comes back, one token over does not`() async throws {
    // a's copy is 15 + 400 / 4 = 115 tokens.
    let atLimit = try await ledger(ContextRetention(itemTokenLimit: 115))
      .reattachment(before: 12, visibleUntil: 15, room: 1_000, budget: 100_000)
    #expect(atLimit.keys == ["skill:a"])
    let under = try await ledger(ContextRetention(itemTokenLimit: 114))
      .reattachment(before: 12, visibleUntil: 15, room: 1_000, budget: 100_000)
    #expect(under.keys.isEmpty)
    #expect(under.leftOut.first { $0.key == "skill:a" }?.reason == .overItemLimit(limit: 114))
  }

  @Test func `a share or a limit outside its range is clamped to it, and the bounds are kept`() async throws {
    #expect(ContextRetention(budgetShare: 1).budgetShare == 1)
    #expect(ContextRetention(budgetShare: 0).budgetShare == 0)
    #expect(ContextRetention(budgetShare: 1.5).budgetShare == 1)
    #expect(ContextRetention(budgetShare: -0.5).budgetShare == 0)
    #expect(ContextRetention(budgetShare: .nan).budgetShare == 0)
    #expect(ContextRetention(budgetShare: .infinity).budgetShare == 0)
    #expect(ContextRetention(itemTokenLimit: 0).itemTokenLimit == 0)
    #expect(ContextRetention(itemTokenLimit: -1).itemTokenLimit == 0)
    // A share of 1.5 re-attaches no more than the whole budget: of 300 tokens, a (115)
    // fits, a and b (115 + 215 = 330) do not (at 1.5 they would: 450).
    let over = try await ledger(ContextRetention(budgetShare: 1.5))
      .reattachment(before: 12, visibleUntil: 15, room: 1_000, budget: 300)
    #expect(over.keys == ["skill:a"])
    #expect(over.leftOut.first?.reason == .overShare(share: 300))
  }

  @Test func `a key still visible after the cut, or none at all, puts nothing back`() async throws {
    let full = try await ledger()
    // Cut at 9: a is delivered again at 11, visible; only b comes back.
    #expect(full.reattachment(before: 9, visibleUntil: 15, room: 1_000, budget: 2_000).keys == ["skill:b"])
    #expect(full.reattachment(before: 0, visibleUntil: 15, room: 1_000, budget: 1_000) == .none)
    let none = try await ledger(.none).reattachment(before: 12, visibleUntil: 15, room: 1_000, budget: 1_000)
    #expect(none.keys.isEmpty && none.leftOut.count == 2)
  }

  @Test
  func
    `a cut's answer ignores what comes after visibleUntil; a later delivery's key is removed by the caller`()
    async throws
  {
    let full = try await ledger()
    // Replaying at history length 9 (a at 2, b at 5, c at 8): a and b come back,
    // although a is delivered again at 11 in the longer history.
    let early = full.reattachment(before: 9, visibleUntil: 9, room: 1_000, budget: 2_000)
    #expect(early.keys == ["skill:a", "skill:b"])
    #expect(early.size == (15 + 100) + (15 + 200))
    // The same answer as from the history as it was then.
    let then = try await RetainedContextLedger(
      Array(history.prefix(9)), unit: .tokens, counter: EstimatingTokenCounter(),
      retention: ContextRetention())
    #expect(then.reattachment(before: 9, visibleUntil: 9, room: 1_000, budget: 2_000) == early)
    // Keys delivered at 9 or later: a (11) and d (14); without a, only b's pair is left.
    #expect(full.keys(deliveredFrom: 9) == ["skill:a", "skill:d"])
    let pruned = early.removing(keys: full.keys(deliveredFrom: 9))
    #expect(pruned.keys == ["skill:b"])
    #expect(pruned.size == 15 + 200)
    #expect(pruned.entries.map(\.id) == ["contextkit.retained.b.calls", "contextkit.retained.b"])
    #expect(early.removing(keys: ["skill:d"]) == early)
    // Built without the items' sizes, the size stays whole: an upper bound.
    let bare = Reattachment(entries: early.entries, keys: early.keys, size: 330, leftOut: [])
    #expect(bare.removing(keys: ["skill:a"]).size == 330)
    #expect(bare.removing(keys: ["skill:a"]).keys == ["skill:b"])
  }
}
