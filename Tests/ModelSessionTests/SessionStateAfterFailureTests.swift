import Foundation
import ModelSession
import TestSupport
import Testing

/// What a failed, cancelled or ended turn leaves behind besides the
/// transcript: the usage, the turn index of the next turn, the records, the
/// stream's end, and whether the model is asked again.
@Suite("Session state after a failure or a cancellation", .timeLimit(.minutes(10)))
struct SessionStateAfterFailureTests {
  private struct ModelDown: Error, Equatable {}

  @Test func `a failed turn adds no usage, and the next turn takes its index`() async throws {
    let script = ModelScript([
      .text("Four", inputTokens: 10),
      // Valid as a generation, refused by the schema after it: the turn fails once its usage is known.
      .text("nope", inputTokens: 100),
      .text("Done", inputTokens: 20),
    ])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
    try await session.respond(to: "2 + 2?")
    #expect(session.latestGenerationRecord?.turnIndex == 0)
    #expect(session.usage.input.totalTokenCount == 10)
    #expect(session.usage.output.totalTokenCount == 1)

    await #expect(throws: LanguageModelSession.SessionError.self) {
      try await session.respond(to: "Plan", schema: Itinerary.generationSchema)
    }
    #expect(session.latestGenerationRecord?.turnIndex == 1)
    // The failed turn's 100 + 1 tokens are not the usage of a completed turn.
    #expect(session.usage.input.totalTokenCount == 10)
    #expect(session.usage.output.totalTokenCount == 1)

    try await session.respond(to: "Thanks")
    // The transcript's second turn: index 1, as the failed turn was rolled back.
    #expect(session.latestGenerationRecord?.turnIndex == 1)
    #expect(session.usage.input.totalTokenCount == 30)
    #expect(session.usage.output.totalTokenCount == 2)
    #expect(session.transcript.map(\.kindName) == ["prompt", "response", "prompt", "response"])
  }

  @Test func `a refused second request leaves the running turn responding, so a third is refused too`()
    async throws
  {
    let started = TestSignal()
    let script = ModelScript([.stall(signalling: started), .text("After.")])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
    let running = Task { try await session.respond(to: "slow") }
    try await started.wait(upTo: .seconds(30))
    await #expect(throws: LanguageModelSession.SessionError.concurrentRequests) {
      try await session.respond(to: "second")
    }
    // The refusal belongs to the second call: the first turn still runs.
    #expect(session.isResponding)
    await #expect(throws: LanguageModelSession.SessionError.concurrentRequests) {
      try await session.streamResponse(to: "third").collect()
    }
    #expect(session.isResponding)
    #expect(script.playedCount == 1)
    running.cancel()
    await #expect(throws: CancellationError.self) { try await running.value }
    #expect(!session.isResponding)
    try await session.respond(to: "fourth")
    #expect(session.transcript.map(\.kindName) == ["prompt", "response"])
  }

  @Test func `a model that finishes after the cancel does not commit the turn`() async throws {
    let streamed = TestSignal()
    let release = TestSignal()
    let script = ModelScript([
      .text("first"),
      // Answers in full, but only after the test has cancelled the turn: it ignores the cancel.
      ScriptStep { _, channel in
        await channel.send(.response(entryID: "late", action: .appendText("late answer", tokenCount: 2)))
        streamed.fire()
        try await release.wait(upTo: .seconds(60))
      },
    ])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
    try await session.respond(to: "one")
    let before = session.transcript
    let task = Task { try await session.respond(to: "two") }
    try await streamed.wait(upTo: .seconds(30))
    task.cancel()
    release.fire()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(session.transcript == before)
    #expect(!session.isResponding)
    #expect(session.latestGenerationRecord?.outcome == .cancelled)
  }

  @Test func `cancelling during a tool call asks the model nothing more`() async throws {
    let tool = GateTool()
    let script = ModelScript([.toolCall(name: "gate", arguments: "{}"), .text("never asked")])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [tool])
    let task = Task { try await session.respond(to: "Open the gate.") }
    try await tool.entered.wait(upTo: .seconds(30))
    task.cancel()
    // The tool ignores the cancel and returns: the loop must not start another round.
    tool.release.fire()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(script.playedCount == 1)
    #expect(script.requests.count == 1)
    #expect(session.transcript.map(\.kindName) == ["instructions"])
    #expect(!session.isResponding)
  }

  @Test func `a model that throws its own error when cancelled surfaces as a cancellation`() async throws {
    let started = TestSignal()
    let script = ModelScript([
      // As a transport does: the cancel reaches it as its own "connection closed" error.
      ScriptStep { request, channel in
        let stall = ScriptStep.stall(
          after: [.response(entryID: "r", action: .appendText("part", tokenCount: 1))], signalling: started)
        do {
          try await stall.run(request, channel)
        } catch {
          throw ModelDown()
        }
      }
    ])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
    let task = Task { try await session.respond(to: "Hello") }
    try await started.wait(upTo: .seconds(30))
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(session.latestGenerationRecord?.outcome == .cancelled)
    #expect(session.transcript.isEmpty)
  }

  @Test func `a streamed turn that fails ends its stream with the error, not as a complete answer`()
    async throws
  {
    let half: [LanguageModelExecutorGenerationChannel.Event] = [
      .response(entryID: "r", action: .appendText("half an ans", tokenCount: 3))
    ]
    let script = ModelScript([.failure(ModelDown(), after: half), .failure(ModelDown(), after: half)])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
    var texts: [String] = []
    do {
      for try await snapshot in session.streamResponse(to: "Tell me") { texts.append(snapshot.content) }
      Issue.record("the stream ended as if the answer were complete: \(texts)")
    } catch {
      #expect(error as? ModelDown == ModelDown())
    }
    #expect(texts.allSatisfy { $0 == "half an ans" })
    await #expect(throws: ModelDown.self) {
      try await session.streamResponse(to: "Again").collect()
    }
    #expect(session.transcript.isEmpty)
  }

  @Test func `cancelling the task that iterates a stream cancels its turn`() async throws {
    let midStream = TestSignal()
    let script = ModelScript([
      .stall(
        after: [.response(entryID: "r", action: .appendText("Once upon", tokenCount: 2))],
        signalling: midStream)
    ])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
    let stream = session.streamResponse(to: "Tell me a story")
    let consumer = Task { for try await _ in stream {} }
    try await midStream.wait(upTo: .seconds(30))
    consumer.cancel()
    // The turn itself must end: collect() returns once it has.
    let ended = TestSignal()
    let turn = Task {
      defer { ended.fire() }
      return try await stream.collect()
    }
    try await ended.wait(upTo: .seconds(30))
    await #expect(throws: CancellationError.self) { try await turn.value }
    #expect(!session.isResponding)
    #expect(session.transcript.isEmpty)
    #expect(session.latestGenerationRecord?.outcome == .cancelled)
  }

  @Test func `the records stream shows a failed generation and ends when the session is released`()
    async throws
  {
    let script = ModelScript([.failure(ModelDown()), .text("Fine.")])
    let ended = TestSignal()
    let reader: Task<[GenerationRecord.Outcome], Never>
    do {
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
      let records = session.generationRecords
      reader = Task {
        var outcomes: [GenerationRecord.Outcome] = []
        for await record in records { outcomes.append(record.outcome) }
        ended.fire()
        return outcomes
      }
      await #expect(throws: ModelDown.self) { try await session.respond(to: "First") }
      try await session.respond(to: "Second")
    }
    // The session is released here: the stream ends.
    try await ended.wait(upTo: .seconds(30))
    #expect(await reader.value == [.failed("ModelDown()"), .completed])
  }
}

/// A tool that signals when called, then waits for the test to let it
/// return, ignoring cancellation (as a tool that finishes its work would).
private struct GateTool: Tool {
  let name = "gate"
  let description = "Opens a gate."
  let entered = TestSignal()
  let release = TestSignal()

  var parameters: GenerationSchema {
    (try? GenerationSchema(root: DynamicGenerationSchema(name: "Empty", properties: []), dependencies: []))
      ?? String.generationSchema
  }

  func call(arguments: GeneratedContent) async throws -> String {
    entered.fire()
    try await release.wait(upTo: .seconds(60))
    return "Opened."
  }
}
