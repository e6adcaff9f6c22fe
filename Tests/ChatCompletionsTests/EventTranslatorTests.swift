import Foundation
import ModelSession
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

private typealias Chunk = ChatCompletionChunk
private typealias Event = LanguageModelExecutorGenerationChannel.Event

/// What a list of events says, flattened for comparison.
private struct Digest {
  var responseIDs: Set<String> = []
  var toolCallIDs: Set<String> = []
  var reasoningIDs: Set<String> = []
  var text = ""
  var reasoning = ""
  var textEvents = 0
  /// Per call id: the names seen and the argument text.
  var calls: [String: (names: Set<String>, arguments: String)] = [:]
  var callOrder: [String] = []
  var usage:
    [(LanguageModelExecutorGenerationChannel.InputUsage, LanguageModelExecutorGenerationChannel.OutputUsage)] =
      []
  var metadata: [[String: GeneratedContent]] = []

  init(_ events: [Event]) {
    for event in events {
      switch event {
      case .response(let id, let action):
        responseIDs.insert(id ?? "nil")
        switch action {
        case .appendText(let piece, _):
          text += piece
          textEvents += 1
        case .updateUsage(let input, let output): usage.append((input, output))
        case .replaceMetadata(let values): metadata.append(values)
        default: break
        }
      case .reasoning(let id, let action):
        reasoningIDs.insert(id ?? "nil")
        if case .appendText(let piece, _) = action { reasoning += piece }
      case .toolCalls(let id, let action):
        toolCallIDs.insert(id ?? "nil")
        if case .toolCall(let callID, let name, .appendArguments(let piece, _)) = action {
          if calls[callID] == nil { callOrder.append(callID) }
          var call = calls[callID] ?? (names: [], arguments: "")
          call.names.insert(name)
          call.arguments += piece
          calls[callID] = call
        }
      }
    }
  }
}

private func translate(_ chunks: [Chunk], _ translator: inout EventTranslator) throws -> [Event] {
  var events: [Event] = []
  for chunk in chunks { events += try translator.translate(chunk) }
  try translator.finish()
  return events
}

private func translate(_ chunks: [Chunk]) throws -> Digest {
  var translator = EventTranslator(responseEntryID: "R", toolCallsEntryID: "T", reasoningEntryID: "Z")
  return Digest(try translate(chunks, &translator))
}

private func fixtureChunks(_ name: String) async throws -> [Chunk] {
  let data = try Fixtures.data(name)
  let body = AsyncThrowingStream<Data, any Error> { continuation in
    continuation.yield(data)
    continuation.finish()
  }
  var chunks: [Chunk] = []
  for try await chunk in ChatCompletionChunkStream(body: body) { chunks.append(chunk) }
  return chunks
}

private func delta(
  content: String? = nil, reasoning: String? = nil, calls: [Chunk.ToolCallDelta] = [],
  finish: ChatCompletionChunk.FinishReason? = nil
) -> Chunk {
  Chunk(
    choices: [
      .init(
        delta: .init(content: content, reasoningContent: reasoning, toolCalls: calls), finishReason: finish)
    ])
}

private func call(
  _ index: Int?, id: String? = nil, name: String? = nil, _ arguments: String? = nil
)
  -> Chunk.ToolCallDelta
{
  .init(index: index, id: id, type: "function", function: .init(name: name, arguments: arguments))
}

/// The kind of the `ChatCompletionsError` that translating `chunks` throws, or `nil`.
private func malformedKind(_ chunks: [Chunk]) -> ChatCompletionsError.Kind? {
  do {
    _ = try translate(chunks)
    return nil
  } catch {
    return (error as? ChatCompletionsError)?.kind
  }
}

@Suite(.timeLimit(.minutes(10))) struct EventTranslatorTests {
  @Test(.timeLimit(.minutes(10))) func `the recorded text stream becomes response text under one entry id`()
    async throws
  {
    let digest = try translate(try await fixtureChunks("streamed-text.sse"))
    #expect(digest.responseIDs == ["R"])
    #expect(digest.textEvents > 3)
    #expect(!digest.text.isEmpty)
    #expect(digest.calls.isEmpty && digest.toolCallIDs.isEmpty)
  }

  @Test(.timeLimit(.minutes(10)))
  func `the recorded named tool call becomes one call with its name on every event`() async throws {
    let digest = try translate(try await fixtureChunks("tool-call-named.sse"))
    #expect(digest.toolCallIDs == ["T"])
    #expect(digest.calls.count == 1)
    let (id, call) = try #require(digest.calls.first)
    #expect(id.hasPrefix("call_"))
    #expect(call.names == ["get_weather"])
    let arguments = try GeneratedContent(json: call.arguments)
    // The fixture's argument fragments joined by hand: { "city": "Paris" }.
    #expect(arguments == GeneratedContent(properties: ["city": "Paris"]))
  }

  @Test(.timeLimit(.minutes(10)))
  func `the recorded json_object stream is response text that parses as JSON`()
    async throws
  {
    let digest = try translate(try await fixtureChunks("json-object-schema.sse"))
    #expect(digest.responseIDs == ["R"])
    _ = try GeneratedContent(json: digest.text)
  }

  @Test(.timeLimit(.minutes(10)))
  func `the recorded length-limited stream records the finish reason in metadata`() async throws {
    let digest = try translate(try await fixtureChunks("length-limit.sse"))
    #expect(digest.metadata.last?[EventTranslator.finishReasonKey] == GeneratedContent("length"))
  }

  @Test(.timeLimit(.minutes(10))) func `interleaved parallel calls are accumulated by index`() throws {
    let digest = try translate([
      delta(calls: [call(0, id: "a", name: "weather", #"{"ci"#)]),
      delta(calls: [call(1, id: "b", name: "time", #"{"zo"#)]),
      delta(calls: [call(0, #"ty":"Paris"}"#)]),
      delta(calls: [call(1, #"ne":"CET"}"#)]),
      delta(finish: .toolCalls),
    ])
    #expect(digest.callOrder == ["a", "b"])
    #expect(digest.calls["a"]?.arguments == #"{"city":"Paris"}"#)
    #expect(digest.calls["a"]?.names == ["weather"])
    #expect(digest.calls["b"]?.arguments == #"{"zone":"CET"}"#)
    #expect(digest.calls["b"]?.names == ["time"])
  }

  @Test(.timeLimit(.minutes(10)))
  func `calls without ids get synthesized ids, stable across their fragments and unique`() throws {
    let digest = try translate([
      delta(calls: [call(0, name: "weather", #"{"city":"#), call(1, name: "time", "{")]),
      delta(calls: [call(0, #""Oslo"}"#), call(1, "}")]),
    ])
    #expect(digest.calls.count == 2)
    #expect(Set(digest.callOrder).count == 2)
    let first = try #require(digest.callOrder.first)
    #expect(digest.calls[first]?.arguments == #"{"city":"Oslo"}"#)
    var other = EventTranslator()
    let otherDigest = Digest(try other.translate(delta(calls: [call(0, name: "weather", "{}")])))
    #expect(Set(otherDigest.callOrder).isDisjoint(with: digest.callOrder))
  }

  @Test(.timeLimit(.minutes(10))) func `a name repeated on every fragment is set, not appended`() throws {
    let digest = try translate([
      delta(calls: [call(0, id: "a", name: "weather", "{")]),
      delta(calls: [call(0, id: "a", name: "weather", "}")]),
    ])
    #expect(digest.calls["a"]?.names == ["weather"])
    #expect(digest.calls["a"]?.arguments == "{}")
  }

  @Test(.timeLimit(.minutes(10))) func `arguments that arrive before the name wait for it`() throws {
    let digest = try translate([
      delta(calls: [call(0, id: "a", "{")]),
      delta(calls: [call(0, name: "weather", "}")]),
    ])
    #expect(digest.calls["a"]?.names == ["weather"])
    #expect(digest.calls["a"]?.arguments == "{}")
  }

  @Test(.timeLimit(.minutes(10)))
  func `content and tool calls in one delta are both kept, under different entry ids`() throws {
    let digest = try translate([delta(content: "Checking.", calls: [call(0, id: "a", name: "weather", "{}")])]
    )
    #expect(digest.text == "Checking.")
    #expect(digest.calls["a"]?.arguments == "{}")
    #expect(digest.responseIDs == ["R"] && digest.toolCallIDs == ["T"])
  }

  @Test(.timeLimit(.minutes(10))) func `reasoning goes to its own entry`() throws {
    let digest = try translate([delta(reasoning: "Think"), delta(reasoning: "ing."), delta(content: "Done.")])
    #expect(digest.reasoning == "Thinking.")
    #expect(digest.reasoningIDs == ["Z"])
    #expect(digest.text == "Done.")
  }

  @Test(.timeLimit(.minutes(10))) func `usage becomes cumulative totals with cached and reasoning tokens`()
    throws
  {
    let usage = Chunk(
      usage: .init(promptTokens: 100, completionTokens: 7, cachedPromptTokens: 64, reasoningTokens: 3))
    let digest = try translate([delta(content: "Hi"), usage])
    let (input, output) = try #require(digest.usage.first)
    #expect(digest.usage.count == 1)
    #expect(input.totalTokenCount == 100 && input.cachedTokenCount == 64)
    #expect(output.totalTokenCount == 7 && output.reasoningTokenCount == 3)
  }

  @Test(.timeLimit(.minutes(10))) func `content_filter is a guardrail violation`() throws {
    #expect(throws: LanguageModelError.self) {
      try translate([delta(content: "Well"), delta(finish: .contentFilter)])
    }
  }

  @Test(.timeLimit(.minutes(10))) func `a normal stop adds no metadata`() throws {
    let digest = try translate([delta(content: "Hi", finish: .stop)])
    #expect(digest.metadata.isEmpty)
  }

  @Test(.timeLimit(.minutes(10))) func `a streamed refusal is a refusal when the stream ends`() throws {
    var translator = EventTranslator()
    _ = try translator.translate(Chunk(choices: [.init(delta: .init(refusal: "I can't help with that."))]))
    #expect(throws: LanguageModelError.self) { try translator.finish() }
  }

  @Test(.timeLimit(.minutes(10)))
  func `a new id on an index starts a new call instead of merging into the old one`() throws {
    let digest = try translate([
      delta(calls: [call(0, id: "a", name: "weather", #"{"city":"#)]),
      delta(calls: [call(0, #""Oslo"}"#)]),
      delta(calls: [call(0, id: "b", name: "time", #"{"zone":"#)]),
      delta(calls: [call(0, #""CET"}"#)]),
      delta(finish: .toolCalls),
    ])
    #expect(digest.callOrder == ["a", "b"])
    #expect(digest.calls["a"]?.names == ["weather"])
    #expect(digest.calls["a"]?.arguments == #"{"city":"Oslo"}"#)
    #expect(digest.calls["b"]?.names == ["time"])
    #expect(digest.calls["b"]?.arguments == #"{"zone":"CET"}"#)
  }

  @Test(.timeLimit(.minutes(10)))
  func `an id that arrives after the first fragment of a call is adopted, not a second call`() throws {
    let digest = try translate([
      delta(calls: [call(0, "{")]),
      delta(calls: [call(0, id: "late", name: "weather", "}")]),
    ])
    #expect(digest.callOrder == ["late"])
    #expect(digest.calls["late"]?.arguments == "{}")
  }

  @Test(.timeLimit(.minutes(10)))
  func `a server id on the index of an id-less call the session has seen starts a second call`() throws {
    // The first call gets the made-up id call_<entry id>_<index>_<sequence> and is
    // announced at once; the server's id that follows belongs to another call,
    // here one without arguments, which must still reach the session.
    let digest = try translate([
      delta(calls: [call(0, name: "weather", #"{"city":"Oslo"}"#)]),
      delta(calls: [call(0, id: "b", name: "time", "")]),
      delta(finish: .toolCalls),
    ])
    #expect(digest.callOrder == ["call_T_0_1", "b"])
    #expect(digest.calls["call_T_0_1"]?.names == ["weather"])
    #expect(digest.calls["call_T_0_1"]?.arguments == #"{"city":"Oslo"}"#)
    #expect(digest.calls["b"]?.names == ["time"])
    #expect(digest.calls["b"]?.arguments == "")
  }

  @Test(.timeLimit(.minutes(10)))
  func `arguments whose call never gets a name are a malformed response, not an empty turn`() {
    #expect(
      malformedKind([delta(calls: [call(0, id: "a", #"{"city":"Oslo"}"#)]), delta(finish: .toolCalls)])
        == .malformedResponse)
    #expect(
      malformedKind([delta(calls: [call(0, #"{"city":"Oslo"}"#)]), delta(finish: .stop)])
        == .malformedResponse)
    // The nameless call is replaced by a named one on the same index: still malformed, at once.
    #expect(
      malformedKind([
        delta(calls: [call(0, id: "a", #"{"city":"#)]), delta(calls: [call(0, id: "b", name: "time", "{}")]),
      ]) == .malformedResponse)
    // One named and one nameless call: the nameless one is not silently dropped.
    #expect(
      malformedKind([
        delta(calls: [call(0, id: "a", name: "time", "{}"), call(1, id: "b", "{}")]),
        delta(finish: .toolCalls),
      ]) == .malformedResponse)
  }

  @Test(.timeLimit(.minutes(10)))
  func `of several nameless calls the error names the one with the lowest index`() {
    var translator = EventTranslator(responseEntryID: "R", toolCallsEntryID: "T", reasoningEntryID: "Z")
    let chunks = [
      delta(calls: [call(2, id: "late", "{}")]), delta(calls: [call(1, id: "named", name: "time", "{}")]),
      delta(calls: [call(0, id: "early", #"{"a":1}"#)]), delta(finish: .toolCalls),
    ]
    #expect {
      _ = try translate(chunks, &translator)
    } throws: { error in
      (error as? ChatCompletionsError)?.message
        == #"the server sent tool call "early" at index 0 without a function name (7 bytes of arguments)"#
    }
  }

  @Test(.timeLimit(.minutes(10))) func `an id used by two calls is a malformed response`() {
    #expect(
      malformedKind([
        delta(calls: [call(0, id: "a", name: "weather", "{}")]),
        delta(calls: [call(1, id: "a", name: "time", "{}")]),
      ]) == .malformedResponse)
  }

  @Test(.timeLimit(.minutes(10))) func `an empty fragment on a new index starts nothing`() throws {
    let digest = try translate([delta(calls: [call(0, id: "a", name: "weather", "{}"), call(1, "")])])
    #expect(digest.callOrder == ["a"])
  }

  @Test(.timeLimit(.minutes(10))) func `usage without prompt token details leaves the cached count unknown`()
    throws
  {
    let digest = try translate([
      delta(content: "Hi"), Chunk(usage: .init(promptTokens: 100, completionTokens: 7)),
    ])
    let (input, _) = try #require(digest.usage.first)
    #expect(input.totalTokenCount == 100)
    #expect(input.reportedCachedTokenCount == nil)
    #expect(input.cachedTokenCount == 0)
  }

  @Test(.timeLimit(.minutes(10))) func `a reported zero is known, not unknown`() throws {
    let digest = try translate([
      delta(content: "Hi"),
      Chunk(usage: .init(promptTokens: 100, completionTokens: 7, cachedPromptTokens: 0)),
    ])
    #expect(digest.usage.first?.0.reportedCachedTokenCount == 0)
  }

  @Test(.timeLimit(.minutes(10))) func `llama.cpp timings alone give the prompt size and the cached tokens`()
    throws
  {
    let timings = Chunk(
      timings: .init(cachedPromptTokens: 236, processedPromptTokens: 12, predictedTokens: 5))
    let digest = try translate([delta(content: "Hi", finish: .stop), timings])
    let (input, output) = try #require(digest.usage.first)
    #expect(input.totalTokenCount == 248 && input.reportedCachedTokenCount == 236)
    #expect(output.totalTokenCount == 5)
  }

  @Test(.timeLimit(.minutes(10)))
  func `timings fill in the cached count that usage leaves out, in either order`() throws {
    let usage = Chunk(usage: .init(promptTokens: 250, completionTokens: 5))
    let timings = Chunk(timings: .init(cachedPromptTokens: 236, processedPromptTokens: 14))
    for chunks in [[timings, usage], [usage, timings]] {
      let digest = try translate([delta(content: "Hi")] + chunks)
      let (input, output) = try #require(digest.usage.last)
      #expect(input.totalTokenCount == 250 && input.reportedCachedTokenCount == 236)
      #expect(output.totalTokenCount == 5)
    }
  }

  @Test(.timeLimit(.minutes(10)))
  func `calls sent whole at one index without ids are separate calls when their names differ`() throws {
    let digest = try translate([
      delta(calls: [call(0, name: "weather", #"{"city":"Oslo"}"#)]),
      delta(calls: [call(0, name: "time", #"{"zone":"CET"}"#)]),
    ])
    #expect(digest.callOrder.count == 2)
    let names = digest.callOrder.compactMap { digest.calls[$0]?.names }
    #expect(names == [["weather"], ["time"]])
    #expect(
      digest.callOrder.compactMap { digest.calls[$0]?.arguments } == [
        #"{"city":"Oslo"}"#, #"{"zone":"CET"}"#,
      ])
  }

  @Test(.timeLimit(.minutes(10))) func `one id with two names is a malformed response`() {
    #expect(
      malformedKind([
        delta(calls: [call(0, id: "a", name: "weather", "{")]),
        delta(calls: [call(0, id: "a", name: "time", "}")]),
      ]) == .malformedResponse)
  }

  /// Finish reasons, choices, refusals and usage: which value of a chunk becomes which event.
  @Suite("Chunk translation details") struct Details {
    @Test func `only choice 0 is the response; other choices are ignored`() throws {
      let chunk = Chunk(choices: [
        .init(index: 1, delta: .init(content: "other")), .init(index: 0, delta: .init(content: "mine")),
      ])
      let digest = try translate([chunk])
      #expect(digest.text == "mine")
    }

    @Test func `only length records a finish reason; tool_calls, function_call and unknown reasons do not`()
      throws
    {
      for reason in [Chunk.FinishReason.toolCalls, .functionCall, .stop, Chunk.FinishReason(rawValue: "eos")]
      {
        let digest = try translate([delta(calls: [call(0, id: "a", name: "weather", "{}")], finish: reason)])
        #expect(digest.metadata.isEmpty, "\(reason)")
      }
      var translator = EventTranslator(responseEntryID: "R", toolCallsEntryID: "T", reasoningEntryID: "Z")
      let events = try translate([delta(content: "Hi"), delta(finish: .length)], &translator)
      let digest = Digest(events)
      #expect(digest.metadata == [["finishReason": GeneratedContent("length")]])
      #expect(digest.responseIDs == ["R"])
      #expect(translator.seenFinishReasons == [.length])
    }

    @Test func `content_filter is a guardrail violation naming the reason, not a refusal`() {
      #expect {
        try translate([delta(content: "Well"), delta(finish: .contentFilter)])
      } throws: { error in
        guard case .guardrailViolation(let payload) = error as? LanguageModelError else { return false }
        return payload.metadata["finishReason"] as? String == "content_filter"
      }
    }

    @Test func `a refusal in pieces is one refusal with the whole text`() throws {
      var translator = EventTranslator()
      _ = try translator.translate(Chunk(choices: [.init(delta: .init(refusal: "I can't "))]))
      _ = try translator.translate(Chunk(choices: [.init(delta: .init(refusal: "help with that."))]))
      #expect {
        try translator.finish()
      } throws: { error in
        guard case .refusal(let payload) = error as? LanguageModelError else { return false }
        return payload.debugDescription == "I can't help with that."
      }
    }

    @Test func `usage wins over llama.cpp timings where both give a count`() throws {
      let usage = Chunk(usage: .init(promptTokens: 300, completionTokens: 9, cachedPromptTokens: 64))
      let timings = Chunk(
        timings: .init(cachedPromptTokens: 236, processedPromptTokens: 14, predictedTokens: 12))
      let digest = try translate([delta(content: "Hi"), timings, usage])
      let (input, output) = try #require(digest.usage.last)
      #expect(input.totalTokenCount == 300)
      #expect(input.reportedCachedTokenCount == 64)
      #expect(output.totalTokenCount == 9)
      #expect(output.reasoningTokenCount == 0)
    }

    @Test func `timings on the last chunk beside its text and finish reason are usage too`() throws {
      // llama.cpp sends its timings on the chunk that finishes, not on a chunk of their own.
      let last = Chunk(
        choices: [.init(delta: .init(content: "Hi"), finishReason: .stop)],
        timings: .init(cachedPromptTokens: 236, processedPromptTokens: 12, predictedTokens: 5))
      let digest = try translate([last])
      #expect(digest.text == "Hi")
      let (input, output) = try #require(digest.usage.first)
      #expect(digest.usage.count == 1)
      #expect(input.totalTokenCount == 248 && input.reportedCachedTokenCount == 236)
      #expect(output.totalTokenCount == 5)
    }

    @Test func `timings with only a cached count give no usage: the prompt's size is unknown`() throws {
      let digest = try translate([delta(content: "Hi"), Chunk(timings: .init(cachedPromptTokens: 236))])
      #expect(digest.usage.isEmpty)
    }

    @Test func `an empty id or name on a later fragment continues the call`() throws {
      let digest = try translate([
        delta(calls: [call(0, id: "a", name: "weather", #"{"city":"#)]),
        delta(calls: [call(0, id: "", name: "", #""Oslo"}"#)]),
        delta(finish: .toolCalls),
      ])
      #expect(digest.callOrder == ["a"])
      #expect(digest.calls["a"]?.names == ["weather"])
      #expect(digest.calls["a"]?.arguments == #"{"city":"Oslo"}"#)
    }

    /// One line per event: its kind, entry id, text and token count.
    private func lines(_ events: [Event]) -> [String] {
      events.map { event in
        switch event {
        case .response(let id, .appendText(let text, let count)): "response \(id ?? "nil") \(text) \(count)"
        case .reasoning(let id, .appendText(let text, let count)): "reasoning \(id ?? "nil") \(text) \(count)"
        case .toolCalls(let id, .toolCall(let callID, let name, .appendArguments(let text, let count))):
          "call \(id ?? "nil") \(callID) \(name) \(text) \(count)"
        default: "other"
        }
      }
    }

    @Test func `reasoning comes before the text of the same delta, and a call's name alone counts no token`()
      throws
    {
      var translator = EventTranslator(responseEntryID: "R", toolCallsEntryID: "T", reasoningEntryID: "Z")
      let events = try translate(
        [
          delta(content: "Hi", reasoning: "think"), delta(calls: [call(0, id: "a", name: "weather")]),
          delta(calls: [call(0, "{}")]),
        ], &translator)
      #expect(
        lines(events) == [
          "reasoning Z think 1", "response R Hi 1", "call T a weather  0", "call T a weather {} 1",
        ])
    }
  }
}
