import Foundation
import ModelSession
import TestSupport
import Testing

struct LanguageModelErrorSample: Sendable, CustomTestStringConvertible {
  var name: String
  var error: LanguageModelError
  var testDescription: String { name }

  static let all: [LanguageModelErrorSample] = [
    .init(
      name: "contextSizeExceeded",
      error: .contextSizeExceeded(
        .init(contextSize: 4096, tokenCount: 5000, debugDescription: "sample contextSizeExceeded"))),
    .init(
      name: "rateLimited",
      error: .rateLimited(
        .init(resetDate: Date(timeIntervalSince1970: 0), debugDescription: "sample rateLimited"))),
    .init(
      name: "guardrailViolation",
      error: .guardrailViolation(.init(debugDescription: "sample guardrailViolation"))),
    .init(name: "refusal", error: .refusal(.init(debugDescription: "sample refusal"))),
    .init(
      name: "unsupportedCapability",
      error: .unsupportedCapability(
        .init(capability: .vision, debugDescription: "sample unsupportedCapability"))),
    .init(
      name: "unsupportedTranscriptContent",
      error: .unsupportedTranscriptContent(
        .init(unsupportedContent: [], debugDescription: "sample unsupportedTranscriptContent"))),
    .init(
      name: "unsupportedGenerationGuide",
      error: .unsupportedGenerationGuide(
        .init(schemaName: "X", debugDescription: "sample unsupportedGenerationGuide"))),
    .init(
      name: "unsupportedLanguageOrLocale",
      error: .unsupportedLanguageOrLocale(
        .init(languageCode: Locale.LanguageCode("xx"), debugDescription: "sample unsupportedLanguageOrLocale")
      )),
    .init(name: "timeout", error: .timeout(.init(debugDescription: "sample timeout"))),
  ]
}

/// A tool without arguments that answers with an image.
struct SnapshotTool: Tool {
  let name = "snapshot"
  let description = "Takes a picture."

  var parameters: GenerationSchema { FailingTool().parameters }

  func call(arguments: GeneratedContent) async throws -> Prompt {
    Prompt(segments: [
      .attachment(.init(id: "shot", content: .image(.init(data: Data([1]), mimeType: "image/png"))))
    ])
  }
}

@Suite(.timeLimit(.minutes(10))) struct SessionFailureTests {
  @Test(.timeLimit(.minutes(10))) func `a value that follows the schema but does not decode undoes the turn`()
    async throws
  {
    let script = ModelScript([.text(#"{"count":-3}"#)])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
    await #expect {
      try await session.respond(to: "Count", generating: PositiveCount.self)
    } throws: { error in
      guard case LanguageModelSession.SessionError.decodingFailure(let reason) = error else { return false }
      return reason.contains("PositiveCount")
    }
    #expect(session.transcript.isEmpty)
  }

  @Suite("Session failures leave the transcript unchanged") struct TranscriptUnchanged {
    @Test func `tools without toolCalling are refused before the executor runs`() async throws {
      let script = ModelScript([.text("never")])
      let model = ScriptedLanguageModel(script: script, capabilities: [])
      let session = LanguageModelSession(model: model, tools: [WeatherTool()])
      await #expect {
        try await session.respond(to: "x")
      } throws: { error in
        guard case LanguageModelError.unsupportedCapability(let payload) = error else { return false }
        return payload.capability == .toolCalling
      }
      #expect(script.playedCount == 0)
      #expect(session.transcript.count == 1)
    }

    @Test func `a schema without guidedGeneration is refused`() async throws {
      let script = ModelScript([.text("{}")])
      let session = LanguageModelSession(
        model: ScriptedLanguageModel(script: script, capabilities: [.toolCalling]))
      await #expect {
        try await session.respond(to: "x", schema: Itinerary.generationSchema)
      } throws: { error in
        guard case LanguageModelError.unsupportedCapability(let payload) = error else { return false }
        return payload.capability == .guidedGeneration
      }
      #expect(script.playedCount == 0)
    }

    @Test func `an image without vision is refused`() async throws {
      let script = ModelScript([.text("a cat")])
      let session = LanguageModelSession(
        model: ScriptedLanguageModel(script: script, capabilities: [.toolCalling]))
      let prompt = Prompt {
        "What is this?"
        Transcript.Segment.attachment(.init(content: .image(.init(data: Data([1]), mimeType: "image/png"))))
      }
      await #expect {
        try await session.respond(to: prompt)
      } throws: { error in
        guard case LanguageModelError.unsupportedCapability(let payload) = error else { return false }
        return payload.capability == .vision
      }
      #expect(session.transcript.isEmpty)
    }

    @Test func `an image a tool returns is refused before the next round reaches a model without vision`()
      async throws
    {
      let script = ModelScript([.toolCall(name: "snapshot", arguments: "{}"), .text("a cat")])
      let session = LanguageModelSession(
        model: ScriptedLanguageModel(script: script, capabilities: [.toolCalling]), tools: [SnapshotTool()])
      await #expect {
        try await session.respond(to: "Look")
      } throws: { error in
        guard case LanguageModelError.unsupportedCapability(let payload) = error else { return false }
        return payload.capability == .vision
      }
      // The first round ran; the second, whose history holds the tool's image, was never sent.
      #expect(script.playedCount == 1)
      #expect(session.transcript.map(\.kindName) == ["instructions"])
    }

    @Test(arguments: LanguageModelErrorSample.all)
    func `every LanguageModelError passes through unchanged`(sample: LanguageModelErrorSample) async throws {
      let script = ModelScript([
        .text("kept"),
        .failure(sample.error, after: [.response(entryID: "r", action: .appendText("half", tokenCount: 1))]),
      ])
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
      try await session.respond(to: "first")
      let before = session.transcript
      do {
        try await session.respond(to: "second")
        Issue.record("expected \(sample.name)")
      } catch let error as LanguageModelError {
        #expect(error.description.hasPrefix(sample.name))
        #expect(error.debugDescription == "sample \(sample.name)")
      }
      #expect(session.transcript == before)
      #expect(session.latestGenerationRecord?.outcome == .failed(sample.error.description))
    }

    @Test func `cancellation mid-stream surfaces as CancellationError and keeps the transcript`() async throws
    {
      let midStream = TestSignal()
      let script = ModelScript([
        .text("first"),
        .stall(
          after: [.response(entryID: "r", action: .appendText("partial answer", tokenCount: 2))],
          signalling: midStream),
      ])
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
      try await session.respond(to: "one")
      let before = session.transcript
      let task = Task { try await session.respond(to: "two") }
      // Cancel only once part of the answer has been streamed.
      try await midStream.wait(upTo: .seconds(30))
      task.cancel()
      await #expect(throws: CancellationError.self) { try await task.value }
      #expect(session.transcript == before)
      #expect(!session.isResponding)
      #expect(session.latestGenerationRecord?.outcome == .cancelled)
    }

    @Test func `a second respond while one runs is rejected`() async throws {
      let started = TestSignal()
      let script = ModelScript([.stall(signalling: started)])
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
      let running = Task { try await session.respond(to: "slow") }
      try await started.wait(upTo: .seconds(30))
      #expect(session.isResponding)
      await #expect(throws: LanguageModelSession.SessionError.concurrentRequests) {
        try await session.respond(to: "again")
      }
      running.cancel()
      _ = await running.result
      #expect(session.transcript.isEmpty)
    }

    @Test func `a schema-guided response decodes into a type`() async throws {
      let script = ModelScript([.text(#"{"city":"Lisbon","days":3}"#)])
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
      let response = try await session.respond(to: "Plan", generating: Itinerary.self)
      #expect(response.content == Itinerary(city: "Lisbon", days: 3))
      let request = try #require(script.requests.first)
      #expect(request.schema == Itinerary.generationSchema)
      guard case .prompt(let prompt) = session.transcript.first else { Issue.record("no prompt"); return }
      #expect(prompt.responseFormat?.name == "Itinerary")
    }

    @Test func `a response that does not follow the schema is rejected, not returned`() async throws {
      let script = ModelScript([.text(#"{"city":"Lisbon","days":"three"}"#), .text("not json at all")])
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
      await #expect {
        try await session.respond(to: "Plan", generating: Itinerary.self)
      } throws: { error in
        guard case LanguageModelSession.SessionError.schemaMismatch(let name, let reason) = error else {
          return false
        }
        return name == "Itinerary" && reason.contains("days")
      }
      await #expect {
        try await session.respond(to: "Plan", schema: Itinerary.generationSchema)
      } throws: { error in
        guard case LanguageModelSession.SessionError.schemaMismatch(_, let reason) = error else {
          return false
        }
        return reason.contains("not JSON")
      }
      #expect(session.transcript.isEmpty)
    }
  }
}
