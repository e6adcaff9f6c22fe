import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// A prompt the user wrote while a tool ran sits between the tool call and its
/// output. It does not start a turn: a modifier that cut there would send the
/// model an output whose call it never sees.
@Suite(.timeLimit(.minutes(10)))
struct PromptDuringToolCallTests {
  /// instructions, p1 → call c1, p2 (written while c1 ran), c1's output, r1, then p3 → r3.
  static let history = Transcript(entries: [
    Make.instructions(), Make.prompt("p1"), Make.calls("t1", ["c1"]), Make.prompt("p2"), Make.output("c1"),
    Make.response("r1"), Make.prompt("p3"), Make.response("r3"),
  ])

  /// The outputs in `entries` whose call does not come before them.
  static func outputsWithoutCall(_ entries: [Transcript.Entry]) -> [String] {
    var calls: Set<String> = []
    var orphans: [String] = []
    for entry in entries {
      switch entry {
      case .toolCalls(let toolCalls): calls.formUnion(toolCalls.calls.map(\.id))
      case .toolOutput(let output) where !calls.contains(output.id): orphans.append(output.id)
      default: break
      }
    }
    return orphans
  }

  @Test func `rollingWindow does not start the window at a prompt between a call and its output`()
    async throws
  {
    // With the new prompt, 9 entries. The turns start at p1 (index 1) and p3 (index 6); p2 does
    // not. A window of 7 entries: from p1 is 9 (too many), from p3 is 4. Cutting at p2 would
    // give exactly 7, with c1's output and no call.
    let script = ModelScript([.text("Done.")])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile { "Be helpful." }.rollingWindow(entries: 7), history: Self.history)
    try await session.respond(to: "question q4")
    let sent = try #require(script.requests.first).transcript.entries
    #expect(sent.map(\.kindName) == ["instructions", "prompt", "response", "prompt"])
    #expect(sent.dropFirst().first?.id == "p3")
    #expect(Self.outputsWithoutCall(sent).isEmpty)
  }

  @Test(arguments: [20, 30, 40, 50, 60])
  func `compactingHistory never sends an output without its call`(budget: Int) async throws {
    let script = ModelScript([.text("Done.")])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile { "Be helpful." }.compactingHistory(tokenBudget: budget), history: Self.history)
    try await session.respond(to: "question q4")
    let sent = try #require(script.requests.first).transcript.entries
    #expect(Self.outputsWithoutCall(sent).isEmpty, "budget \(budget): \(sent.map(\.id))")
    #expect(sent.first?.kindName == "instructions")
    #expect(sent.last?.kindName == "prompt")
    // Whatever it keeps of the first turn keeps c1's call with its output.
    #expect(sent.contains { $0.id == "c1" } == sent.contains { $0.id == "t1" }, "\(sent.map(\.id))")
  }
}
