import ContextKitDemo
import Foundation
import ModelSession
import TestSupport
import Testing

@Suite("Scenario runner", .timeLimit(.minutes(10))) struct ScenarioRunnerTests {
  @Test func `the conversation's sizes are the ones the tests compute by hand`() {
    // 33 to 36 bytes are 9 tokens, 13 with the framing.
    for turn in halfCountedConversation.turns {
      #expect(turn.prompt.utf8.count == 34)
      #expect(turn.generations[0].text?.utf8.count == 35)
    }
  }

  @Test func `counting half, compactingHistory is refused once at turn 4 and recovers`() async throws {
    let runner = ScenarioRunner(skills: [], countsHalf: true)
    let run = try await runner.run(halfCountedConversation, strategy: .compactingHistory)
    // Turn 4's request is 20 + 26 * 4 = 124 tokens, over the window of 100; the counter saw
    // 3 + 4 * 12 + 6 = 57, inside its budget. After the refusal (100 * 57 / 124 = 45 of its
    // tokens fit) at most the instructions and 7 entries fit: 7 + 7 * 13 = 98 tokens, so no
    // later turn is refused.
    #expect(
      run.recoveries.map { [$0.generationIndex, $0.turnIndex, $0.round] } == [[4, 4, 0]])
    #expect(run.recoveries.map(\.conversation) == ["half-counted"])
    #expect(run.recoveries.map(\.strategy) == [.compactingHistory])
    #expect(run.recoveries.map(\.note.source) == ["session"])
    #expect(
      run.recoveries.map(\.note.counts) == [
        [.promptTokens: 124, .contextSize: 100, .reservedResponseTokens: 0]
      ])
    #expect(
      run.recoveries.map(\.note.names) == [
        [.reason: ["replay model: maximum context length is 100 tokens, the prompt has 124"]]
      ])
    #expect(run.records.count == 8)
    #expect(run.records.allSatisfy { $0.outcome == .completed })
    let sent = run.records.map { record in
      record.sentTranscript.entries.map { EstimatingTokenCounter().tokenCount(of: $0) }.reduce(0, +)
    }
    #expect(sent.allSatisfy { $0 <= 100 }, "\(sent)")
  }

  @Test func `counting right, the same conversation needs no recovery`() async throws {
    let run = try await ScenarioRunner(skills: []).run(halfCountedConversation, strategy: .compactingHistory)
    #expect(run.recoveries.isEmpty)
    #expect(run.records.count == 8)
  }

  @Test func `counting half, a strategy that cannot compact on overflow fails at the first refusal`()
    async throws
  {
    let runner = ScenarioRunner(skills: [], countsHalf: true)
    do {
      _ = try await runner.run(halfCountedConversation, strategy: .none)
      Issue.record("the run completed")
    } catch LanguageModelError.contextSizeExceeded(let refusal) {
      #expect(refusal.contextSize == 100)
      #expect(refusal.tokenCount == 124)
    }
  }
}
