import CacheAnalysis
import HistoryCompression
import ModelSession
import Synchronization
import TestSupport
import Testing

/// Adds "Use lists." to the instructions while the flag is on: an instructions skill, in miniature.
private struct ListsWhenOn: DynamicInstructions {
  let flag: Flag

  var body: ProfileContent { ProfileContent() }

  func resolve(into resolution: inout ProfileResolution) async throws {
    if flag.isOn { resolution.append(Instructions("Use lists.")) }
  }
}

/// Where `compactingHistory` cuts and what stays: the pinned first turns and
/// the compaction that rides on a changed prefix, through a real session.
/// Turns are a prompt of 100 words and the answer "ok" (101 tokens with
/// `WordTokenCounter`); the instructions "Be brief." take 2.
@Suite("Compaction timing", .timeLimit(.minutes(10))) struct CompactionTimingTests {
  static func prompts(_ count: Int) -> [String] {
    (1...count).map { words(100, tag: "q\($0)w") }
  }

  static func script(_ count: Int) -> ModelScript {
    ModelScript((0..<count).map { _ in .text("ok") })
  }

  /// The prompt texts the model was sent, in order.
  static func promptTexts(_ record: GenerationRecord) -> [String] {
    record.sentTranscript.compactMap { entry in
      guard case .prompt(let prompt) = entry else { return nil }
      return prompt.segments.joinedText
    }
  }

  @Test func `the first turns are pinned: a compaction drops the turns after them and they stay cached`()
    async throws
  {
    let prompts = Self.prompts(17)
    let profile = Profile { Instructions("Be brief.") }
      .compactingHistory(
        tokenBudget: 1_000, target: 400, pinnedTokens: 250,
        tokenCounter: WordTokenCounter(toolDefinitionTokens: 100),
        options: .init(prefixBreaks: PrefixBreakLog()))
    let run = try await observedRun(
      profile: profile, script: Self.script(17), prompts: prompts,
      model: try PromptCacheModel(blockSize: 1, tokenCounter: WordTokenCounter(toolDefinitionTokens: 100)))
    try #require(run.records.count == 17)
    // Turn 10 passes the budget (2 + 9 × 101 + 100 = 1,011). Turns 1 and 2
    // (202 tokens) are pinned; of the rest only the current turn fits 400.
    #expect(Self.promptTexts(run.records[9]) == [prompts[0], prompts[1], prompts[9]])
    #expect(Self.promptTexts(run.records[15]).count == 9)
    // Turn 17 passes it again (2 + 202 + 7 × 101 + 100 = 1,011): the same pinned turns, then turn 17.
    #expect(Self.promptTexts(run.records[16]) == [prompts[0], prompts[1], prompts[16]])
    // The server re-reads only what follows the pinned turns: the instructions and turns 1 and 2 are reused.
    #expect(run.reports[16].reusedTokenCount == 2 + 202)
    #expect(
      run.records[16].notes.contains { $0.kind == .historyRewritten && $0.source == "compactingHistory" })
  }

  @Test func `a changed instructions text is the moment to compact, even under the budget`() async throws {
    let prompts = Self.prompts(6)
    var sent: [[String]] = []
    for switchesSkill in [false, true] {
      let flag = Flag()
      let profile = Profile {
        Instructions("Be brief.")
        ListsWhenOn(flag: flag)
      }
      .compactingHistory(
        tokenBudget: 1_000, target: 400, pinnedTokens: 0,
        tokenCounter: WordTokenCounter(toolDefinitionTokens: 100),
        options: .init(prefixBreaks: PrefixBreakLog()))
      let run = try await observedRun(
        profile: profile, script: Self.script(6), prompts: prompts,
        between: { turn in if switchesSkill, turn == 4 { flag.isOn = true } })
      try #require(run.records.count == 6)
      sent.append(Self.promptTexts(run.records[4]))
      if switchesSkill {
        // Turn 6 extends what turn 5 saw: the cut made at the change holds.
        #expect(Self.promptTexts(run.records[5]) == Array(prompts[2...5]))
        #expect(run.reports[5].cause.kind == .appendOnly)
      }
    }
    // Turn 5 takes 2 + 4 × 101 + 100 = 506 tokens: under the budget of 1,000, nothing is cut.
    #expect(sent[0] == Array(prompts[0...4]))
    // With the instructions changed (4 tokens now), the whole history is read
    // again anyway, so it is cut down to the target: turns 3 to 5 (4 + 302).
    #expect(sent[1] == Array(prompts[2...4]))
  }
}
