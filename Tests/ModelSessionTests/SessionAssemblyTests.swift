import Foundation
import ModelSession
import TestSupport
import Testing

typealias Event = LanguageModelExecutorGenerationChannel.Event

/// A round that calls the weather tool for Oslo (3 tokens of arguments), then
/// reports `input` tokens in and 3 out on a response entry with `usageEntryID`.
private func weatherCallThenUsage(usageEntryID: String?, input: Int) -> ScriptStep {
  .events([
    .toolCalls(
      entryID: "t",
      action: .toolCall(
        id: "c", name: "weather", action: .appendArguments(#"{"city":"Oslo"}"#, tokenCount: 3))),
    .response(
      entryID: usageEntryID,
      action: .updateUsage(input: .init(totalTokenCount: input), output: .init(totalTokenCount: 3))),
  ])
}

@Suite(.timeLimit(.minutes(10))) struct SessionAssemblyTests {
  @Test(.timeLimit(.minutes(10)))
  func `a response entry that only carried usage is dropped when the generation called tools`()
    async throws
  {
    let script = ModelScript([
      weatherCallThenUsage(usageEntryID: "r", input: 40),
      .events([
        .response(
          entryID: "r2",
          action: .updateUsage(input: .init(totalTokenCount: 50), output: .init(totalTokenCount: 0)))
      ]),
    ])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [WeatherTool()])
    let response = try await session.respond(to: "Weather?")
    #expect(
      session.transcript.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])
    #expect(response.usage.input.totalTokenCount == 90)
    #expect(response.content == "")
  }

  @Suite("Session assembles channel events into entries") struct ChannelEvents {
    @Test func `plain text streamed in pieces becomes one response`() async throws {
      let script = ModelScript([.text("Hello, world! How are you?", pieceLength: 3)])
      let session = LanguageModelSession(
        model: ScriptedLanguageModel(script: script), instructions: "Be nice.")
      let response = try await session.respond(to: "Hi")
      #expect(response.content == "Hello, world! How are you?")
      #expect(response.transcriptEntries.count == 2)
      let transcript = session.transcript
      #expect(transcript.map(\.kindName) == ["instructions", "prompt", "response"])
      guard case .response(let entry) = transcript[2] else { Issue.record("no response"); return }
      #expect(entry.segments.count == 1)
      #expect(response.usage.input.totalTokenCount == 10)
    }

    @Test func `interleaved arguments of parallel tool calls are routed by call id`() async throws {
      let script = ModelScript([
        .events([
          .toolCalls(
            entryID: "t",
            action: .toolCall(id: "a", name: "weather", action: .appendArguments("", tokenCount: 0))),
          .toolCalls(
            entryID: "t",
            action: .toolCall(id: "b", name: "weather", action: .appendArguments("{\"ci", tokenCount: 1))),
          .toolCalls(
            entryID: "t",
            action: .toolCall(id: "a", name: "weather", action: .appendArguments("{\"city\":", tokenCount: 1))
          ),
          .toolCalls(
            entryID: "t",
            action: .toolCall(
              id: "b", name: "weather", action: .appendArguments("ty\":\"Rome\"}", tokenCount: 1))),
          .toolCalls(
            entryID: "t",
            action: .toolCall(id: "a", name: "weather", action: .appendArguments("\"Oslo\"}", tokenCount: 1))),
        ]),
        .text("Oslo 21, Rome 21."),
      ])
      let weather = WeatherTool()
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [weather])
      let response = try await session.respond(to: "Weather in Oslo and Rome?")
      #expect(response.content == "Oslo 21, Rome 21.")
      #expect(Set(weather.calls.all) == ["Oslo", "Rome"])
      let kinds = session.transcript.map(\.kindName)
      #expect(kinds == ["instructions", "prompt", "toolCalls", "toolOutput", "toolOutput", "response"])
      guard case .toolCalls(let calls) = session.transcript[2] else { Issue.record("no calls"); return }
      #expect(calls.map(\.id) == ["a", "b"])
      #expect(try calls[0].arguments.value(String.self, forProperty: "city") == "Oslo")
      #expect(try calls[1].arguments.value(String.self, forProperty: "city") == "Rome")
      let outputIDs = session.transcript.compactMap { entry -> String? in
        if case .toolOutput(let output) = entry { output.id } else { nil }
      }
      #expect(outputIDs == ["a", "b"])
    }

    @Test func `reasoning, text and tool calls interleaved keep their first-appearance order`() async throws {
      let script = ModelScript([
        .events([
          .reasoning(entryID: nil, action: .appendText("Let me ", tokenCount: 1)),
          .reasoning(entryID: nil, action: .appendText("think.", tokenCount: 1)),
          .reasoning(entryID: nil, action: .updateSignature(Data([1, 2, 3]), tokenCount: 0)),
          .response(entryID: "r", action: .appendText("Checking", tokenCount: 1)),
          .toolCalls(
            entryID: "t",
            action: .toolCall(
              id: "c", name: "weather", action: .appendArguments(#"{"city":"Paris"}"#, tokenCount: 3))),
          .reasoning(entryID: nil, action: .appendText("Second thought.", tokenCount: 1)),
          .response(entryID: "r", action: .appendText(" the weather.", tokenCount: 1)),
        ]),
        .text("Done."),
      ])
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [WeatherTool()])
      try await session.respond(to: "Weather in Paris?")
      let entries = Array(session.transcript.dropFirst(2))
      #expect(
        entries.map(\.kindName) == [
          "reasoning", "response", "toolCalls", "reasoning", "toolOutput", "response",
        ])
      guard case .reasoning(let first) = entries[0], case .response(let text) = entries[1],
        case .reasoning(let second) = entries[3]
      else { Issue.record("unexpected entries"); return }
      #expect(first.segments.joinedText == "Let me think.")
      #expect(first.signature == Data([1, 2, 3]))
      #expect(text.segments.joinedText == "Checking the weather.")
      #expect(second.segments.joinedText == "Second thought.")
    }

    @Test func `a retracted tool call is neither stored nor run`() async throws {
      let script = ModelScript([
        .events([
          .toolCalls(
            entryID: "t",
            action: .toolCall(id: "x", name: "weather", action: .appendArguments(#"{"city":"#, tokenCount: 1))
          ),
          .toolCalls(entryID: "t", action: .removeToolCall(id: "x")),
          .response(entryID: "r", action: .appendText("Never mind.", tokenCount: 1)),
        ])
      ])
      let weather = WeatherTool()
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [weather])
      let response = try await session.respond(to: "Hm?")
      #expect(response.content == "Never mind.")
      #expect(weather.calls.all.isEmpty)
      #expect(session.transcript.map(\.kindName) == ["instructions", "prompt", "response"])
    }

    @Test func `usage and metadata are wholesale snapshots`() async throws {
      let script = ModelScript([
        .events([
          .response(entryID: "r", action: .updateMetadata(["a": 1, "b": "two"])),
          .response(entryID: "r", action: .appendText("x", tokenCount: 1)),
          .response(
            entryID: "r",
            action: .updateUsage(
              input: .init(totalTokenCount: 50, cachedTokenCount: 10), output: .init(totalTokenCount: 1))),
          .response(
            entryID: "r",
            action: .updateUsage(
              input: .init(totalTokenCount: 50, cachedTokenCount: 40),
              output: .init(totalTokenCount: 7, reasoningTokenCount: 2))),
          .response(entryID: "r", action: .updateMetadata(["b": "three"])),
        ])
      ])
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
      let response = try await session.respond(to: "Go")
      #expect(
        response.usage
          == GenerationUsage(
            input: .init(totalTokenCount: 50, cachedTokenCount: 40),
            output: .init(totalTokenCount: 7, reasoningTokenCount: 2)))
      #expect(session.usage == response.usage)
      guard case .response(let entry) = session.transcript.last else { Issue.record("no response"); return }
      #expect(entry.metadata == ["b": GeneratedContent(kind: .string("three"))])
    }

    @Test func `attachments are added and removed by id`() async throws {
      let first = Transcript.AttachmentSegment(
        id: "img1", content: .image(.init(data: Data([0x89]), mimeType: "image/png")))
      let second = Transcript.AttachmentSegment(
        id: "img2", content: .image(.init(url: URL(filePath: "/tmp/b.png"))), label: "B")
      let script = ModelScript([
        .events([
          .response(entryID: "r", action: .appendText("Here:", tokenCount: 1)),
          .response(entryID: "r", action: .addAttachmentSegment(first)),
          .response(entryID: "r", action: .addAttachmentSegment(second)),
          .response(entryID: "r", action: .removeAttachmentSegment(first)),
          .response(entryID: "r", action: .appendText("Enjoy.", tokenCount: 1)),
        ])
      ])
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
      try await session.respond(to: "Draw")
      guard case .response(let entry) = session.transcript.last else { Issue.record("no response"); return }
      #expect(entry.segments.map(\.id).contains("img2"))
      #expect(!entry.segments.map(\.id).contains("img1"))
      #expect(entry.segments.count == 3)
      #expect(entry.segments.joinedText == "Here:\nEnjoy.")
    }

    @Test func `custom segments are replaced by id`() async throws {
      Transcript.registerCustomSegmentType(Citation.self)
      let script = ModelScript([
        .events([
          .response(entryID: "r", action: .updateCustomSegment(Citation(id: "c1", url: "https://a.example"))),
          .response(entryID: "r", action: .updateCustomSegment(Citation(id: "c2", url: "https://b.example"))),
          .response(entryID: "r", action: .updateCustomSegment(Citation(id: "c1", url: "https://c.example"))),
        ])
      ])
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
      try await session.respond(to: "Cite")
      guard case .response(let entry) = session.transcript.last else { Issue.record("no response"); return }
      let citations = entry.segments.compactMap { segment -> Citation? in
        if case .custom(let custom) = segment { custom as? Citation } else { nil }
      }
      #expect(
        citations == [
          Citation(id: "c1", url: "https://c.example"), Citation(id: "c2", url: "https://b.example"),
        ])
    }

    @Test func `streamed snapshots are cumulative and end with the full answer`() async throws {
      let script = ModelScript([.text("one two three four", pieceLength: 4)])
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
      var seen: [String] = []
      let stream = session.streamResponse(to: "Count")
      for try await snapshot in stream {
        seen.append(snapshot.content)
      }
      #expect(seen.last == "one two three four")
      for (earlier, later) in zip(seen, seen.dropFirst()) {
        #expect(later.hasPrefix(earlier))
      }
      let response = try await stream.collect()
      #expect(response.content == "one two three four")
      #expect(session.transcript.count == 2)
    }

    @Test func `each streamed piece reaches the consumer as its own snapshot before the next is generated`()
      async throws
    {
      let pieces = ["one ", "two ", "three ", "four"]
      let seen = pieces.map { _ in TestSignal() }
      let script = ModelScript([
        ScriptStep { _, channel in
          for (index, piece) in pieces.enumerated() {
            await channel.send(.response(entryID: "r", action: .appendText(piece, tokenCount: 1)))
            // The model waits until the consumer has seen this piece.
            try await seen[index].wait(upTo: .seconds(30))
          }
        }
      ])
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
      var snapshots: [String] = []
      for try await snapshot in session.streamResponse(to: "Count") {
        snapshots.append(snapshot.content)
        let pieceCount = pieces.indices.last { snapshot.content == pieces[...$0].joined() }
        if let pieceCount { seen[pieceCount].fire() }
      }
      // One snapshot per piece, then the final one (the same text).
      #expect(
        snapshots == ["one ", "one two ", "one two three ", "one two three four", "one two three four"])
    }

    @Test func `without reported usage, output counts the tokens of signatures and tool arguments too`()
      async throws
    {
      let script = ModelScript([
        .events([
          .reasoning(entryID: nil, action: .appendText("Hm.", tokenCount: 1)),
          .reasoning(entryID: nil, action: .updateSignature(Data([7]), tokenCount: 2)),
          .toolCalls(
            entryID: "t",
            action: .toolCall(id: "c", name: "weather", action: .appendArguments(#"{"city":"#, tokenCount: 3))
          ),
          .toolCalls(
            entryID: "t",
            action: .toolCall(id: "c", name: "weather", action: .appendArguments(#""Oslo"}"#, tokenCount: 4))),
        ]),
        .events([.response(entryID: "r", action: .appendText("Mild.", tokenCount: 5))]),
      ])
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [WeatherTool()])
      let response = try await session.respond(to: "Weather?")
      // 1 reasoning + 2 signature + 3 + 4 arguments in the first generation, 5 in the second.
      #expect(response.usage.output.totalTokenCount == 15)
      #expect(response.usage.input.totalTokenCount == 0)
      #expect(session.usage.output.totalTokenCount == 15)
    }

    @Test func `a later event of a call with an empty name keeps the name it started with`() async throws {
      let script = ModelScript([
        .events([
          .toolCalls(
            entryID: "t",
            action: .toolCall(id: "c", name: "weather", action: .appendArguments("", tokenCount: 0))),
          .toolCalls(
            entryID: "t",
            action: .toolCall(id: "c", name: "", action: .appendArguments(#"{"city":"Oslo"}"#, tokenCount: 1))
          ),
        ]),
        .text("Mild."),
      ])
      let weather = WeatherTool()
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [weather])
      try await session.respond(to: "Weather?")
      #expect(weather.calls.all == ["Oslo"])
      guard case .toolCalls(let calls) = session.transcript[2] else { Issue.record("no calls"); return }
      #expect(calls.map(\.toolName) == ["weather"])
    }

    @Test func `an entry id already used by another kind starts an entry with an id of its own`() async throws
    {
      let script = ModelScript([
        .events([
          .response(entryID: "x", action: .appendText("Checking.", tokenCount: 1)),
          .toolCalls(
            entryID: "x",
            action: .toolCall(
              id: "c", name: "weather", action: .appendArguments(#"{"city":"Oslo"}"#, tokenCount: 1))),
        ]),
        .text("Mild."),
      ])
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [WeatherTool()])
      try await session.respond(to: "Weather?")
      let entries = Array(session.transcript.dropFirst(2))
      #expect(entries.map(\.kindName) == ["response", "toolCalls", "toolOutput", "response"])
      #expect(entries[0].id == "x")
      #expect(entries[1].id != "x")
      #expect(Set(session.transcript.map(\.id)).count == session.transcript.count)
    }

    @Test func `a snapshot of a later round holds the earlier rounds' entries and usage`() async throws {
      let seen = TestSignal()
      let script = ModelScript([
        weatherCallThenUsage(usageEntryID: nil, input: 20),
        ScriptStep { _, channel in
          await channel.send(.response(entryID: "r", action: .appendText("Mild", tokenCount: 2)))
          // The model waits until the consumer has seen this snapshot.
          try await seen.wait(upTo: .seconds(30))
          await channel.send(
            .response(
              entryID: "r",
              action: .updateUsage(input: .init(totalTokenCount: 30), output: .init(totalTokenCount: 2))))
        },
      ])
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [WeatherTool()])
      var midway: LanguageModelSession.ResponseStream<String>.Snapshot?
      for try await snapshot in session.streamResponse(to: "Weather?")
      where midway == nil && snapshot.content == "Mild" {
        midway = snapshot
        seen.fire()
      }
      let snapshot = try #require(midway)
      #expect(
        snapshot.transcriptEntries.map(\.kindName) == ["prompt", "toolCalls", "toolOutput", "response"])
      // The first round's reported 20 in and 3 out, plus the 2 streamed so far in the second.
      #expect(snapshot.usage.input.totalTokenCount == 20)
      #expect(snapshot.usage.output.totalTokenCount == 5)
    }
  }
}
