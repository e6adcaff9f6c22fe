import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// What `PrefixBreakLog` remembers between generations, seen through the
/// `CompactingHistory` it serves: a budget of 1,000 tokens and a target of
/// 400, counted one token per UTF-8 byte with no framing. A changed prefix
/// (the instructions "Be brief." = 9 tokens becoming "Be brief. Use lists." =
/// 20) is the moment to compact down to the target, even under the budget.
@Suite(.timeLimit(.minutes(10))) struct `Prefix break log` {
  static let brief = Make.instructions("Be brief.")
  static let lists = Make.instructions("Be brief. Use lists.")

  static func compacting(_ log: PrefixBreakLog) -> CompactingHistory {
    CompactingHistory(
      budget: 1_000, target: 400, pinnedTokens: 0,
      tokenCounter: EstimatingTokenCounter(
        bytesPerToken: 1, imageTokenCount: 0, framingTokenCount: 0, cache: TokenCountCache()),
      prefixBreaks: log)
  }

  /// A prompt of `tokens` bytes.
  static func prompt(_ id: String, tokens: Int) -> Transcript.Entry {
    Make.prompt(id, String(repeating: "a", count: tokens))
  }

  @Test func `a break a rolled-back generation recorded is forgotten once the history is shorter`()
    async throws
  {
    let log = PrefixBreakLog()
    let modifier = Self.compacting(log)
    let p1 = Self.prompt("p1", tokens: 100)
    let r1 = Make.response("r1", "ok")
    // Seen first with "Be brief.", then at 4 entries with "Use lists." added: a break at 4
    // (20 + 100 + 2 + 100 = 222 tokens, under the target: nothing to cut).
    _ = try await modifier.transformHistory(Transcript(entries: [Self.brief, p1]), in: Make.context())
    let changed = Transcript(entries: [Self.lists, p1, r1, Self.prompt("p2", tokens: 100)])
    #expect(try await modifier.transformHistory(changed, in: Make.context()) == changed)
    // That turn is rolled back: the history is 2 entries long, with the same prefix.
    let rolledBack = Transcript(entries: [Self.lists, p1])
    #expect(try await modifier.transformHistory(rolledBack, in: Make.context()) == rolledBack)
    // It grows to 4 entries again with another prompt: 20 + 100 + 2 + 300 = 422 tokens, over the
    // target but under the budget. The prefix did not change at 4 this time: nothing is cut.
    let regrown = Transcript(entries: [Self.lists, p1, r1, Self.prompt("p2-again", tokens: 300)])
    #expect(try await modifier.transformHistory(regrown, in: Make.context()) == regrown)
  }

  @Test func `a full log forgets its oldest conversation, not the one it just met`() async throws {
    let log = PrefixBreakLog(capacity: 1)
    let modifier = Self.compacting(log)
    let a1 = Self.prompt("a1", tokens: 100)
    let b1 = Self.prompt("b1", tokens: 100)
    _ = try await modifier.transformHistory(Transcript(entries: [Self.brief, a1]), in: Make.context())
    _ = try await modifier.transformHistory(Transcript(entries: [Self.brief, b1]), in: Make.context())
    #expect(await log.count == 1)
    // Conversation b changes its instructions at 4 entries (20 + 100 + 2 + 300 = 422 tokens):
    // the log knew its old prefix, so this is a break, and the history is cut to the target:
    // the instructions and the current prompt (320 tokens).
    let b = Transcript(entries: [Self.lists, b1, Make.response("rb1", "ok"), Self.prompt("b2", tokens: 300)])
    let cut = try await modifier.transformHistory(b, in: Make.context())
    #expect(cut.ids == ["instructions", "b2"])
    // Conversation a was forgotten: its changed instructions are a first sight, not a break.
    let a = Transcript(entries: [Self.lists, a1, Make.response("ra1", "ok"), Self.prompt("a2", tokens: 300)])
    #expect(try await modifier.transformHistory(a, in: Make.context()) == a)
  }

  @Test func `each conversation's prefix is remembered apart, even when they take turns`() async throws {
    let log = PrefixBreakLog()
    let modifier = Self.compacting(log)
    let a1 = Self.prompt("a1", tokens: 100)
    let b1 = Self.prompt("b1", tokens: 100)
    _ = try await modifier.transformHistory(Transcript(entries: [Self.brief, a1]), in: Make.context())
    _ = try await modifier.transformHistory(Transcript(entries: [Self.brief, b1]), in: Make.context())
    // Conversation a switches "Use lists." on at 4 entries (422 tokens): a break, cut to the target.
    let a = Transcript(entries: [Self.lists, a1, Make.response("ra1", "ok"), Self.prompt("a2", tokens: 300)])
    #expect(try await modifier.transformHistory(a, in: Make.context()).ids == ["instructions", "a2"])
    // Conversation b still says "Be brief.", as before: no break, and 422 tokens are under the budget.
    let b = Transcript(entries: [Self.brief, b1, Make.response("rb1", "ok"), Self.prompt("b2", tokens: 300)])
    #expect(try await modifier.transformHistory(b, in: Make.context()) == b)
    #expect(await log.count == 2)
  }
}
