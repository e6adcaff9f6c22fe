import Foundation
import ModelSession
import TestSupport
import Testing

/// `streamResponse(to:schema:)`, the streaming twin of `respond(to:schema:)`:
/// snapshots hold the JSON parsed so far, and the finished answer is
/// validated and recorded as `respond` does it.
@Suite("Streamed structured responses", .timeLimit(.minutes(10))) struct StreamedStructuredResponseTests {
  @Test func `snapshots hold the partial JSON, and the answer is the validated whole`() async throws {
    let seen = TestSignal()
    let script = ModelScript([
      ScriptStep { _, channel in
        await channel.send(.response(entryID: "r", action: .appendText(#"{"city":"Os"#, tokenCount: 1)))
        // The model waits until the consumer has seen the cut value.
        try await seen.wait(upTo: .seconds(30))
        await channel.send(.response(entryID: "r", action: .appendText(#"lo","days":3}"#, tokenCount: 1)))
      }
    ])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
    let stream = session.streamResponse(to: "Plan a trip", schema: Itinerary.generationSchema)
    var midway: GeneratedContent?
    var last: GeneratedContent?
    for try await snapshot in stream {
      if midway == nil, snapshot.content[property: "city"] == GeneratedContent(kind: .string("Os")) {
        midway = snapshot.content
        seen.fire()
      }
      last = snapshot.content
    }
    let cut = try #require(midway)
    #expect(cut.jsonString == #"{"city":"Os"}"#)
    #expect(!cut.isComplete)
    #expect(last?.jsonString == #"{"city":"Oslo","days":3}"#)
    #expect(last?.isComplete == true)
    let response = try await stream.collect()
    #expect(response.content.jsonString == #"{"city":"Oslo","days":3}"#)
    // The prompt records the schema it asked for, as respond(to:schema:) records it.
    guard case .prompt(let prompt) = session.transcript.first else { Issue.record("no prompt"); return }
    #expect(prompt.responseFormat?.name == "Itinerary")
    #expect(script.requests.first?.schema == Itinerary.generationSchema)
  }

  @Test func `a streamed answer that breaks the schema fails the turn and stores nothing`() async throws {
    let script = ModelScript([.text(#"{"town":"Oslo","days":3}"#)])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
    let stream = session.streamResponse(to: "Plan a trip", schema: Itinerary.generationSchema)
    await #expect(throws: LanguageModelSession.SessionError.self) {
      for try await _ in stream {}
    }
    await #expect(throws: LanguageModelSession.SessionError.self) { try await stream.collect() }
    #expect(session.transcript.isEmpty)
  }
}
