import Foundation
import ModelSession
import Synchronization
import TestSupport
import Testing

/// A modifier that compacts on overflow the simplest way: once the session
/// hands it a refusal, it keeps the instructions and the current turn. It
/// remembers each context it ran in, and can wait in the retry until cancelled.
private struct CurrentTurnOnOverflow: DynamicProfileModifier {
  final class Seen: Sendable {
    let contexts = Mutex<[(overflow: ContextOverflow?, isRetry: Bool, round: Int)]>([])
  }

  let seen = Seen()
  var stallInRetry: TestSignal?

  var compactsOnContextOverflow: Bool { true }

  func transformHistory(_ history: Transcript, in context: ProfileModifierContext) async throws -> Transcript
  {
    seen.contexts.withLock {
      $0.append((context.contextOverflow, context.isRetryAfterContextOverflow, context.round))
    }
    if context.isRetryAfterContextOverflow, let stallInRetry {
      stallInRetry.fire()
      try await CancellationWait.untilCancelled(upTo: .seconds(60))
    }
    guard context.contextOverflow != nil,
      let lastPrompt = history.entries.lastIndex(where: { if case .prompt = $0 { true } else { false } })
    else { return history }
    return Transcript(entries: history.entries.prefix(1) + history.entries[lastPrompt...])
  }
}

private func refusal(window: Int, prompt: Int) -> LanguageModelError {
  .contextSizeExceeded(
    .init(
      contextSize: window, tokenCount: prompt,
      debugDescription: "maximum context length is \(window) tokens, the prompt has \(prompt)"))
}

@Suite("Context overflow recovery", .timeLimit(.minutes(10))) struct ContextOverflowRecoveryTests {
  @Test func `a refused generation is compacted, retried once, and the retry's record says why`() async throws
  {
    let script = ModelScript([
      .text("first answer"), .failure(refusal(window: 2_048, prompt: 2_300)), .text("fits"),
    ])
    let modifier = CurrentTurnOnOverflow()
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile { Instructions("Be brief.") }.modifier(modifier))
    try await session.respond(to: "one")
    let answer = try await session.respond(to: "two", options: GenerationOptions(maximumResponseTokens: 100))

    #expect(answer.content == "fits")
    #expect(answer.transcriptEntries.map(\.kindName) == ["prompt", "response"])
    #expect(script.requests.count == 3)
    // The refused request held the whole history; the retry, the instructions and the current turn.
    #expect(
      script.requests[1].transcript.map(\.kindName) == ["instructions", "prompt", "response", "prompt"])
    #expect(script.requests[2].transcript.map(\.kindName) == ["instructions", "prompt"])
    let record = try #require(session.latestGenerationRecord)
    #expect(record.requestID == script.requests[2].id)
    #expect(record.sentTranscript == script.requests[2].transcript)
    #expect(record.outcome == .completed)
    let overflow = try #require(modifier.seen.contexts.withLock { $0.last?.overflow })
    #expect(overflow.contextSize == 2_048)
    #expect(overflow.promptTokenCount == 2_300)
    #expect(overflow.reservedResponseTokens == 100)
    #expect(overflow.refusedTranscript == script.requests[1].transcript)
    let notes = record.notes.filter { $0.kind == .contextOverflowRecovered }
    #expect(notes.map(\.source) == ["session"])
    #expect(
      notes.map(\.counts) == [[.promptTokens: 2_300, .contextSize: 2_048, .reservedResponseTokens: 100]])
    #expect(notes.map(\.names) == [[.reason: ["maximum context length is 2048 tokens, the prompt has 2300"]]])
  }

  @Test func `the refused attempt publishes no record: the retry's is the generation's`() async throws {
    let script = ModelScript([.failure(refusal(window: 100, prompt: 120)), .text("fits")])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile { Instructions("Be brief.") }.modifier(CurrentTurnOnOverflow()))
    let stream = session.generationRecords
    try await session.respond(to: "one")
    var iterator = stream.makeAsyncIterator()
    let first = try #require(await iterator.next())
    #expect(first.requestID == script.requests[1].id)
    #expect(first.notes.map(\.kind) == [.contextOverflowRecovered])
  }

  @Test func `a second refusal is the turn's error, unchanged, and the turn is rolled back`() async throws {
    let script = ModelScript([
      .text("first answer"), .failure(refusal(window: 100, prompt: 180)),
      .failure(refusal(window: 100, prompt: 140)),
    ])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile { Instructions("Be brief.") }.modifier(CurrentTurnOnOverflow()))
    try await session.respond(to: "one")
    let before = session.transcript
    await #expect {
      try await session.respond(to: "two")
    } throws: { error in
      guard case LanguageModelError.contextSizeExceeded(let payload) = error else { return false }
      return payload.tokenCount == 140 && payload.contextSize == 100
    }
    #expect(script.requests.count == 3)
    #expect(session.transcript == before)
    #expect(session.latestGenerationRecord?.requestID == script.requests[2].id)
    #expect(session.latestGenerationRecord?.outcome == .failed("\(refusal(window: 100, prompt: 140))"))
  }

  @Test func `without a compacting modifier a refusal is the turn's error and nothing is retried`()
    async throws
  {
    let script = ModelScript([.failure(refusal(window: 100, prompt: 180)), .text("never")])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script), profile: Profile { Instructions("Be brief.") })
    await #expect {
      try await session.respond(to: "two")
    } throws: { error in
      guard case LanguageModelError.contextSizeExceeded(let payload) = error else { return false }
      return payload.tokenCount == 180
    }
    #expect(script.requests.count == 1)
    #expect(session.transcript.isEmpty)
    #expect(session.latestGenerationRecord?.notes.contains { $0.kind == .contextOverflowRecovered } == false)
  }

  @Test func `other errors are not retried, even with a compacting modifier`() async throws {
    let limited = LanguageModelError.rateLimited(.init(resetDate: nil, debugDescription: "slow down"))
    let script = ModelScript([.failure(limited), .text("never")])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile { Instructions("Be brief.") }.modifier(CurrentTurnOnOverflow()))
    await #expect(throws: LanguageModelError.self) { try await session.respond(to: "two") }
    #expect(script.requests.count == 1)
  }

  @Test func `a refusal in the middle of a tool loop is retried in that round and the turn completes`()
    async throws
  {
    let script = ModelScript([
      .text("first answer"), .toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#),
      .failure(refusal(window: 100, prompt: 130)), .text("It is mild."),
    ])
    let modifier = CurrentTurnOnOverflow()
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile {
        Instructions("Be brief.")
        WeatherTool()
      }.modifier(modifier))
    try await session.respond(to: "one")
    let answer = try await session.respond(to: "Weather in Oslo?")

    #expect(answer.content == "It is mild.")
    #expect(answer.transcriptEntries.map(\.kindName) == ["prompt", "toolCalls", "toolOutput", "response"])
    // The retry is round 1 of the turn: the current turn's call and output stay, the earlier turn goes.
    #expect(
      script.requests[3].transcript.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput"])
    let retry = try #require(modifier.seen.contexts.withLock { $0.last })
    #expect(retry.isRetry && retry.round == 1)
    #expect(session.transcript.last?.kindName == "response")
  }

  @Test func `later generations keep the refusal, and are not retries`() async throws {
    let script = ModelScript([.failure(refusal(window: 100, prompt: 130)), .text("fits"), .text("again")])
    let modifier = CurrentTurnOnOverflow()
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile { Instructions("Be brief.") }.modifier(modifier))
    try await session.respond(to: "one")
    try await session.respond(to: "two")
    let seen = modifier.seen.contexts.withLock { $0.map { ($0.overflow?.promptTokenCount, $0.isRetry) } }
    #expect(seen.map(\.0) == [nil, 130, 130])
    #expect(seen.map(\.1) == [false, true, false])
    #expect(script.requests[2].transcript.map(\.kindName) == ["instructions", "prompt"])
  }

  @Test func `cancelling the turn during the recovery ends it with CancellationError and changes nothing`()
    async throws
  {
    let script = ModelScript([
      .text("first answer"), .failure(refusal(window: 100, prompt: 130)), .text("never"),
    ])
    let inRetry = TestSignal()
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile { Instructions("Be brief.") }.modifier(CurrentTurnOnOverflow(stallInRetry: inRetry)))
    try await session.respond(to: "one")
    let before = session.transcript
    let turn = Task { try await session.respond(to: "two") }
    try await inRetry.wait(upTo: .seconds(10))
    turn.cancel()
    await #expect(throws: CancellationError.self) { try await turn.value }
    #expect(script.requests.count == 2)
    #expect(session.transcript == before)
    #expect(!session.isResponding)
  }
}
