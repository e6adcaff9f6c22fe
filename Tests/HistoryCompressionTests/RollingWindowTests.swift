import HistoryCompression
import ModelSession
import TestSupport
import Testing

@Suite("Rolling window", .timeLimit(.minutes(10))) struct RollingWindowTests {
  let history = Transcript(entries: [Make.instructions()] + (1...5).flatMap(Make.turn) + [Make.prompt("p6")])

  @Test func `keeps the instructions and the newest whole turns that fit`() async throws {
    let result = try await RollingWindow(.entries(6)).transformHistory(history, in: Make.context())
    #expect(result.ids == ["instructions", "p4", "r4", "p5", "r5", "p6"])
  }

  @Test func `never splits a prompt from its response, unlike suffix(n)`() async throws {
    // suffix(5) would start at r4, a response without its prompt.
    let result = try await RollingWindow(.entries(5)).transformHistory(history, in: Make.context())
    #expect(result.ids == ["instructions", "p5", "r5", "p6"])
  }

  @Test func `never splits a tool call from its output`() async throws {
    let history = Transcript(
      entries: [Make.instructions()] + Make.toolTurn(1, callCount: 3) + Make.toolTurn(2, callCount: 2)
        + [Make.prompt("p3")])
    for size in 2...history.count {
      let result = try await RollingWindow(.entries(size)).transformHistory(history, in: Make.context())
      let callIDs = Set(
        result.flatMap { entry -> [String] in
          if case .toolCalls(let calls) = entry { return calls.calls.map(\.id) }
          return []
        })
      let outputIDs = Set(
        result.compactMap { entry -> String? in
          if case .toolOutput(let output) = entry { return output.id }
          return nil
        })
      #expect(callIDs == outputIDs, "size \(size)")
      #expect(result.first?.id == "instructions")
    }
  }

  @Test func `never drops the instructions entry`() async throws {
    let result = try await RollingWindow(.entries(2)).transformHistory(history, in: Make.context())
    #expect(result.ids == ["instructions", "p6"])
  }

  @Test(arguments: [HistorySize.entries(0), .entries(-3), .tokens(0), .tokens(-1)])
  func `a size of zero or less is a clear error, not a crash`(size: HistorySize) async throws {
    let error = await #expect(throws: HistoryCompressionError.self) {
      try await RollingWindow(size).transformHistory(history, in: Make.context())
    }
    #expect(error == .invalidSize(modifier: "rollingWindow", size: size))
    #expect(error?.description.contains("must be at least 1") == true)
    #expect(throws: HistoryCompressionError.self) { try size.validated(for: "mine") }
  }

  @Test func `the error for a bad size names the modifier and the size with its unit`() async throws {
    for (size, written) in [(HistorySize.tokens(0), ".tokens(0)"), (.entries(-3), ".entries(-3)")] {
      let error = await #expect(throws: HistoryCompressionError.self) {
        try await RollingWindow(size).transformHistory(history, in: Make.context())
      }
      #expect(
        error?.description
          == "rollingWindow: the size \(written) must be at least 1 (a window or threshold of nothing keeps no history)"
      )
    }
  }

  @Test func `a window exactly the history's size keeps it whole, one less cuts a turn`() async throws {
    // The history has 12 entries: instructions, five turns of two, and p6.
    let whole = Make.context()
    #expect(try await RollingWindow(.entries(12)).transformHistory(history, in: whole) == history)
    #expect(whole.notes.isEmpty)
    // 11 entries: the oldest whole turn (p1, r1) goes, 10 are left.
    let cut = try await RollingWindow(.entries(11)).transformHistory(history, in: Make.context())
    #expect(cut.ids == ["instructions", "p2", "r2", "p3", "r3", "p4", "r4", "p5", "r5", "p6"])
  }

  @Test func `a result exactly the window's size fits; the current turn alone over it is noted`() async throws
  {
    // instructions + p6 = 2 entries: exactly a window of 2, no note.
    let exact = Make.context()
    let kept = try await RollingWindow(.entries(2)).transformHistory(history, in: exact)
    #expect(kept.ids == ["instructions", "p6"])
    #expect(!exact.notes.contains { $0.kind == .information })
    // A window of 1, the smallest size allowed, keeps the same 2 and says they do not fit.
    let over = Make.context()
    let smallest = try await RollingWindow(.entries(1)).transformHistory(history, in: over)
    #expect(smallest.ids == ["instructions", "p6"])
    #expect(
      over.notes.filter { $0.kind == .information }.map(\.counts) == [[.kept: 2, .budget: 1]])
  }

  @Test func `a size of 1 is valid in either unit`() throws {
    #expect(try HistorySize.entries(1).validated(for: "mine") == .entries(1))
    #expect(try HistorySize.tokens(1).validated(for: "mine") == .tokens(1))
  }

  @Test func `bounds by tokens, not only entries`() async throws {
    let counter = EstimatingTokenCounter(cache: TokenCountCache())
    let big = String(repeating: "x", count: 4_000)  // 1,000 tokens
    let history = Transcript(entries: [
      Make.instructions(), Make.prompt("p1", big), Make.response("r1"), Make.prompt("p2"),
      Make.response("r2"),
      Make.prompt("p3"),
    ])
    let result = try await RollingWindow(.tokens(200), tokenCounter: counter).transformHistory(
      history, in: Make.context())
    #expect(result.ids == ["instructions", "p2", "r2", "p3"])
    let total = counter.tokenCounts(of: result.entries).reduce(0, +)
    #expect(total <= 200)
  }

  @Test func `keeps the current turn whole when even it does not fit, and says so`() async throws {
    let context = Make.context()
    let history = Transcript(
      entries: [Make.instructions()] + Make.toolTurn(1) + Make.toolTurn(2, callCount: 3).dropLast())
    let result = try await RollingWindow(.entries(3)).transformHistory(history, in: context)
    #expect(result.ids == ["instructions", "p2", "t2", "c2-0", "c2-1", "c2-2"])
    #expect(context.notes.filter { $0.kind == .information }.map(\.counts) == [[.kept: 6, .budget: 3]])
  }

  @Test func `leaves a history that fits unchanged`() async throws {
    let result = try await RollingWindow(.entries(100)).transformHistory(history, in: Make.context())
    #expect(result == history)
  }

  @Test func `keeps a summary entry with the instructions`() async throws {
    let summary = HistorySummary.entry(summary: "Earlier we talked.", postamble: "")
    let history = Transcript(
      entries: [Make.instructions(), summary] + (1...3).flatMap(Make.turn) + [Make.prompt("p4")])
    let result = try await RollingWindow(.entries(5)).transformHistory(history, in: Make.context())
    #expect(result.ids == ["instructions", summary.id, "p3", "r3", "p4"])
  }

  @Test func `notes a rewrite only when the window moves`() async throws {
    let moved = Make.context()
    _ = try await RollingWindow(.entries(6)).transformHistory(history, in: moved)
    #expect(moved.notes.contains { $0.kind == .historyRewritten })
    // Mid tool loop, the window already starts at the current turn: the new round does not move it.
    let steady = Make.context(round: 2)
    let loop = Transcript(
      entries: [Make.instructions()] + Make.turn(1) + Make.turn(2) + [
        Make.prompt("p3"), Make.calls("t3", ["a"]), Make.output("a"), Make.calls("t3b", ["b"]),
        Make.output("b"),
      ])
    let result = try await RollingWindow(.entries(5)).transformHistory(loop, in: steady)
    #expect(result.ids == ["instructions", "p3", "t3", "a", "t3b", "b"])
    #expect(!steady.notes.contains { $0.kind == .historyRewritten })
  }

  @Test func `says again what it put back when the instructions change, though the window stays`()
    async throws
  {
    // The history of retainedThenToolRounds: o1 is retained, p3 is mid tool loop, the cut
    // points are 1, p2 (5) and p3 (11). A window of 8 entries, of which a
    // quarter (2) may be a copy (2 entries: the call and its output):
    // - now (14 entries): 1 + (14 − 5) = 10 > 8, so the cut is p3 (1 + 3 = 4), which drops o1;
    //   a copy is wanted, so the window is placed again within 8 − 2 = 6: still p3, and
    //   the copy fits the room left (8 − 1 − 3 = 4);
    // - the previous generation (the 12 entries before c3): 1 + 7 = 8 fits from p2, which
    //   drops o1; placed again within 6: 1 + 7 > 6, so p3 (1 + 1 = 2), the copy in 8 − 2 = 6.
    // Same start, same copy: only a change of the instructions makes the note come again.
    let conversation = "p1"
    let prefixBreaks = PrefixBreakLog()  // not the shared one, which other tests fill up
    let copies = ["instructions", "contextkit.retained.o1.calls", "contextkit.retained.o1"]
    func generation(
      instructions: String, after extra: [Transcript.Entry] = []
    ) async throws -> [[GenerationNote.Field: [String]]] {
      let context = Make.context(round: 1)
      let result = try await RollingWindow(.entries(8), prefixBreaks: prefixBreaks).transformHistory(
        Transcript(entries: retainedThenToolRounds(instructions, conversation: conversation) + extra),
        in: context)
      #expect(result.ids == copies + ["p3", "c3", "c"] + extra.map(\.id))
      #expect(!context.notes.contains { $0.kind == .historyRewritten })
      return context.notes.filter { $0.kind == .information }.map(\.names)
    }
    let putBack: [GenerationNote.Field: [String]] = [.putBack: ["skill:style"]]
    #expect(try await generation(instructions: "Be brief.") == [])
    #expect(try await generation(instructions: "Be brief. Use the style skill.") == [putBack])
    // The next round (16 entries, the previous one 14): 1 + 5 = 6 from p3, with the copy 8;
    // the same start, the same copy, the same instructions: nothing to say.
    let nextRound = [Make.calls("c3b", ["d"]), Make.output("d")]
    #expect(try await generation(instructions: "Be brief. Use the style skill.", after: nextRound) == [])
  }
}
