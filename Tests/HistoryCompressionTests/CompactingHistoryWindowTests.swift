import Foundation
import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// `compactingHistory` against the model's window: budgets given as shares of
/// it, the tokens reserved for the response, and the compaction a session
/// asks for when the model refuses a prompt as too long.
@Suite("Compacting history within the model's window", .timeLimit(.minutes(10)))
struct CompactingHistoryWindowTests {
  private let counter = WordTokenCounter(toolDefinitionTokens: 0)

  /// Instructions of 10 words, `turns` turns of a 20-word prompt and a
  /// 30-word answer, then a 20-word prompt: 10 + 50 × turns + 20 words.
  private func history(turns: Int) -> Transcript {
    var entries = [instructionsEntry(words(10, tag: "i"))]
    for turn in 0..<turns {
      entries += [promptEntry(words(20, tag: "p\(turn)-")), responseEntry(words(30, tag: "r\(turn)-"))]
    }
    entries.append(promptEntry(words(20, tag: "now")))
    return Transcript(entries: entries)
  }

  private func size(_ transcript: Transcript) -> Int {
    transcript.reduce(0) { $0 + counter.tokenCount(of: $1) }
  }

  private func shares(_ counter: any TokenCounter) -> CompactingHistory {
    CompactingHistory(
      tokenBudget: .contextShare(0.8), target: .contextShare(0.5), tokenCounter: counter,
      options: .init(prefixBreaks: PrefixBreakLog()))
  }

  private func context(
    window: Int?, reserved: Int = 0, overflow: ContextOverflow? = nil
  ) -> ProfileModifierContext {
    ProfileModifierContext(
      turnIndex: 0, round: 0, toolDefinitions: [], requestID: "test",
      model: ScriptedLanguageModel(script: ModelScript(), contextSize: window),
      reservedResponseTokens: reserved,
      contextOverflow: overflow)
  }

  @Test func `a share of the window counts the tokens reserved for the response`() async throws {
    let history = history(turns: 13)
    #expect(size(history) == 680)
    // 0.8 × 1,000 − 100 = 700 ≥ 680: nothing to do.
    let roomy = try await shares(counter).transformHistory(history, in: context(window: 1_000, reserved: 100))
    #expect(roomy == history)
    // 0.8 × 1,000 − 150 = 650 < 680: compacted, and kept within 650.
    let tight = try await shares(counter).transformHistory(history, in: context(window: 1_000, reserved: 150))
    #expect(tight != history)
    #expect(size(tight) <= 650)
    #expect(tight.first == history.first)
    #expect(tight.last == history.last)
  }

  @Test func `an absolute budget counts the reserved response too`() async throws {
    let history = history(turns: 13)
    let modifier = CompactingHistory(
      tokenBudget: 700, tokenCounter: counter, options: .init(prefixBreaks: PrefixBreakLog()))
    #expect(try await modifier.transformHistory(history, in: context(window: nil, reserved: 20)) == history)
    // 700 − 21 = 679 < 680.
    let tight = try await modifier.transformHistory(history, in: context(window: nil, reserved: 21))
    #expect(size(tight) <= 679)
  }

  @Test func `a share of a window nobody reports is an error, not a guess`() async throws {
    await #expect(
      throws: HistoryCompressionError.unknownContextSize(
        modifier: "compactingHistory",
        reason: "tokenBudget is .contextShare(0.8), and the model's context size is not known")
    ) {
      try await shares(counter).transformHistory(history(turns: 1), in: context(window: nil))
    }
  }

  @Test func `a reserve that leaves the history no room is an error`() async throws {
    await #expect(
      throws: HistoryCompressionError.noRoomForHistory(
        modifier: "compactingHistory", budget: 800, reservedResponseTokens: 800)
    ) {
      try await shares(counter).transformHistory(history(turns: 1), in: context(window: 1_000, reserved: 800))
    }
  }

  @Test func `the window a refusal gave serves a share when the model cannot say it`() async throws {
    let small = history(turns: 2)
    let refused = history(turns: 20)
    let overflow = ContextOverflow(
      contextSize: 1_000, promptTokenCount: size(refused), reservedResponseTokens: 0,
      refusedTranscript: refused,
      message: "too long")
    // 0.8 × 1,000 = 800 words, and the refusal says the counter is exact: the small history passes.
    let result = try await shares(counter).transformHistory(
      small, in: context(window: nil, overflow: overflow))
    #expect(result == small)
  }

  @Test func `after a refusal, a counter that counts half compacts to what fits in the model's tokens`()
    async throws
  {
    let half = ScaledTokenCounter(counter, dividingBy: 2)
    let history = history(turns: 30)  // 1,530 words; the half counter sees 765 (every text has an even count)
    #expect(size(history) == 1_530)
    let modifier = CompactingHistory(
      tokenBudget: 900, tokenCounter: half, options: .init(prefixBreaks: PrefixBreakLog()))
    // Within its own (wrong) budget: unchanged.
    #expect(try await modifier.transformHistory(history, in: context(window: nil)) == history)
    // The model refused it: window 1,000, prompt 1,530, 100 reserved. The counter measured 765, so
    // (1,000 − 100) × 765 / 1,530 = 450 of its tokens fit: 900 words.
    let overflow = ContextOverflow(
      contextSize: 1_000, promptTokenCount: 1_530, reservedResponseTokens: 100, refusedTranscript: history,
      message: "too long")
    let fitted = try await modifier.transformHistory(
      history, in: context(window: nil, reserved: 100, overflow: overflow))
    #expect(size(fitted) <= 900)
    #expect(fitted.last == history.last)
  }

  @Test func `a conversation through a session stays in a reported window at shares of it`() async throws {
    let script = ModelScript(
      (0..<30).map { _ in
        .refusingOver(window: 600, counter: counter, then: .text(words(30, tag: "a"), pieceLength: 64))
      })
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script, contextSize: 600),
      profile: Profile { Instructions(words(10, tag: "i")) }.modifier(shares(counter)))
    for turn in 0..<30 {
      try await session.respond(
        to: words(20, tag: "p\(turn)-"), options: GenerationOptions(maximumResponseTokens: 40))
    }
    #expect(script.requests.count == 30)
    // 0.8 × 600 − 40 = 440 words at most, every time.
    #expect(script.requests.allSatisfy { size($0.transcript) <= 440 })
  }

  @Test
  func `with a counter that counts half, the session recovers from each refusal and every turn completes`()
    async throws
  {
    let script = ModelScript(
      (0..<60).map { _ in
        .refusingOver(window: 600, counter: counter, then: .text(words(30, tag: "a"), pieceLength: 64))
      })
    let modifier = CompactingHistory(
      tokenBudget: 500, tokenCounter: ScaledTokenCounter(counter, dividingBy: 2),
      options: .init(prefixBreaks: PrefixBreakLog()))
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile { Instructions(words(10, tag: "i")) }.modifier(modifier))
    var recoveries = 0
    for turn in 0..<30 {
      try await session.respond(to: words(20, tag: "p\(turn)-"))
      let notes = try #require(session.latestGenerationRecord).notes
      recoveries += notes.filter { $0.kind == .contextOverflowRecovered }.count
    }
    // Once the refusal showed the counter's error (it counts exactly half: every text has an even
    // number of words), the budget is (600 − 0) × 1/2 = 300 of its tokens, 600 words: no second refusal.
    #expect(recoveries == 1)
    #expect(script.requests.count == 31)
  }

  @Test func `without recovery, the same conversation fails at the first refusal with the model's numbers`()
    async throws
  {
    let script = ModelScript(
      (0..<60).map { _ in
        .refusingOver(window: 600, counter: counter, then: .text(words(30, tag: "a"), pieceLength: 64))
      })
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile { Instructions(words(10, tag: "i")) })
    var failure: LanguageModelError.ContextSizeExceeded?
    for turn in 0..<30 {
      do {
        try await session.respond(to: words(20, tag: "p\(turn)-"))
      } catch LanguageModelError.contextSizeExceeded(let payload) {
        failure = payload
        break
      }
    }
    // The twelfth turn's 10 + 50 × 11 + 20 = 580 words fit; the thirteenth turn's 630 do not.
    let payload = try #require(failure)
    #expect((payload.contextSize, payload.tokenCount) == (600, 630))
    #expect(script.requests.count == 13)
  }
}
