import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// What `PrefixBreakLog` remembers between generations, seen through the
/// `CompactingHistory` it serves: a budget of 1,000 tokens and a target of
/// 400, counted one token per UTF-8 byte with no framing. A changed prefix
/// (the instructions "Be brief." = 9 tokens becoming "Be brief. Use lists." =
/// 20) is the moment to compact down to the target, even under the budget.
@Suite("Prefix break log", .timeLimit(.minutes(10))) struct PrefixBreakLogTests {
  static let brief = Make.instructions("Be brief.")
  static let lists = Make.instructions("Be brief. Use lists.")

  static func compacting(_ log: PrefixBreakLog) -> CompactingHistory {
    CompactingHistory(
      tokenBudget: 1_000, target: 400, pinnedTokens: 0,
      tokenCounter: EstimatingTokenCounter(
        bytesPerToken: 1, imageTokenCount: 0, framingTokenCount: 0, cache: TokenCountCache()),
      options: CompactingHistory.Options(prefixBreaks: log))
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

  @Test func `the log and the summary store keep 256 by default, and a capacity below 1 is taken as 1`()
    async
  {
    #expect(await PrefixBreakLog().capacity == 256)
    #expect(await SummaryStore().capacity == 256)
    for below in [0, -1] {
      #expect(await PrefixBreakLog(capacity: below).capacity == 1)
      #expect(await SummaryStore(capacity: below).capacity == 1)
    }
    #expect(await PrefixBreakLog(capacity: 1).capacity == 1)
    #expect(await SummaryStore(capacity: 2).capacity == 2)
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

  /// A context whose request offers `tools`.
  static func context(tools: [Transcript.ToolDefinition]) -> ProfileModifierContext {
    ProfileModifierContext(turnIndex: 0, round: 0, toolDefinitions: tools, requestID: "test")
  }

  static let weather = Transcript.ToolDefinition(tool: WeatherTool())

  @Test func `a change of the tools alone is a break, like a change of the instructions`() async throws {
    let log = PrefixBreakLog()
    let modifier = Self.compacting(log)
    let t1 = Self.prompt("t1", tokens: 100)
    let u1 = Self.prompt("u1", tokens: 100)
    _ = try await modifier.transformHistory(
      Transcript(entries: [Self.brief, t1]), in: Self.context(tools: []))
    _ = try await modifier.transformHistory(
      Transcript(entries: [Self.brief, u1]), in: Self.context(tools: []))
    // Conversation t keeps "Be brief." but a tool is switched on at 4 entries (9 + 100 + 2 + 300 =
    // 411 tokens, over the target): a break, cut to the instructions and the current prompt (309).
    let t = Transcript(entries: [Self.brief, t1, Make.response("rt1", "ok"), Self.prompt("t2", tokens: 300)])
    #expect(
      try await modifier.transformHistory(t, in: Self.context(tools: [Self.weather])).ids == [
        "instructions", "t2",
      ])
    // Conversation u keeps its tools (none): no break, and 411 tokens are under the budget.
    let u = Transcript(entries: [Self.brief, u1, Make.response("ru1", "ok"), Self.prompt("u2", tokens: 300)])
    #expect(try await modifier.transformHistory(u, in: Self.context(tools: [])) == u)
  }

  @Test func `a history without instructions is known by its first entry, and its tools changing is a break`()
    async throws
  {
    let log = PrefixBreakLog()
    let modifier = Self.compacting(log)
    let n1 = Self.prompt("n1", tokens: 100)
    _ = try await modifier.transformHistory(Transcript(entries: [n1]), in: Self.context(tools: []))
    #expect(await log.count == 1)
    // 100 + 2 + 300 = 402 tokens, over the target, and the tools changed: cut to the current prompt.
    let n = Transcript(entries: [n1, Make.response("rn1", "ok"), Self.prompt("n2", tokens: 300)])
    #expect(try await modifier.transformHistory(n, in: Self.context(tools: [Self.weather])).ids == ["n2"])
    #expect(await log.count == 1)
  }
}
