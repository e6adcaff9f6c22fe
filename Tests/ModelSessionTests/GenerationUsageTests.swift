import Foundation
import ModelSession
import TestSupport
import Testing

extension GenerationRecord {
  fileprivate func transcriptEntryCountMatches(_ other: GenerationRecord) -> Bool {
    sentTranscript.count == other.sentTranscript.count && output.count == other.output.count
  }
}

@Suite(.timeLimit(.minutes(10))) struct GenerationUsageTests {
  @Suite("Usage has the framework's input and output shape") struct Shape {
    /// Two generations: a tool call round (20 in, 12 cached, 3 out) and an answer
    /// round (30 in, 25 cached, 9 out of which 4 reasoning).
    private func toolLoopScript() -> ModelScript {
      ModelScript([
        .events([
          .toolCalls(
            entryID: "t",
            action: .toolCall(
              id: "c1", name: "weather", action: .appendArguments("{\"city\":\"Oslo\"}", tokenCount: 3))),
          .response(
            entryID: nil,
            action: .updateUsage(
              input: .init(totalTokenCount: 20, cachedTokenCount: 12), output: .init(totalTokenCount: 3))),
        ]),
        .events([
          .response(entryID: "r", action: .appendText("done", tokenCount: 5)),
          .response(
            entryID: "r",
            action: .updateUsage(
              input: .init(totalTokenCount: 30, cachedTokenCount: 25),
              output: .init(totalTokenCount: 9, reasoningTokenCount: 4))),
        ]),
      ])
    }

    @Test func `responses, sessions and records read usage.input and usage.output`() async throws {
      let session = LanguageModelSession(
        model: ScriptedLanguageModel(script: toolLoopScript()), tools: [WeatherTool()],
        instructions: "Use tools.")
      let response = try await session.respond(to: "Go")
      #expect(response.usage.input.totalTokenCount == 50)
      #expect(response.usage.input.cachedTokenCount == 37)
      #expect(response.usage.output.totalTokenCount == 12)
      #expect(response.usage.output.reasoningTokenCount == 4)
      #expect(session.usage.input.totalTokenCount == 50)
      #expect(session.usage.output.totalTokenCount == 12)
      let record = try #require(session.latestGenerationRecord)
      #expect(record.usage.input.totalTokenCount == 30)
      #expect(record.usage.input.cachedTokenCount == 25)
      #expect(record.usage.output.reasoningTokenCount == 4)
    }

    @Test func `usage at the top of Int over a tool loop and two turns saturates instead of trapping`()
      async throws
    {
      let huge = LanguageModelExecutorGenerationChannel.Event.response(
        entryID: nil,
        action: .updateUsage(
          input: .init(totalTokenCount: .max, cachedTokenCount: .max),
          output: .init(totalTokenCount: .max, reasoningTokenCount: .max)))
      let script = ModelScript([
        .events([
          .toolCalls(
            entryID: "t",
            action: .toolCall(
              id: "c1", name: "weather", action: .appendArguments("{\"city\":\"Oslo\"}", tokenCount: 3))),
          huge,
        ]),
        .events([.response(entryID: "r", action: .appendText("done", tokenCount: 5)), huge]),
        .events([.response(entryID: "r2", action: .appendText("again", tokenCount: 5)), huge]),
      ])
      let session = LanguageModelSession(
        model: ScriptedLanguageModel(script: script), tools: [WeatherTool()], instructions: "Use tools.")
      let first = try await session.respond(to: "Go")
      _ = try await session.respond(to: "Again")
      for usage in [first.usage, session.usage] {
        #expect(usage.input.totalTokenCount == .max && usage.input.cachedTokenCount == .max)
        #expect(usage.output.totalTokenCount == .max && usage.output.reasoningTokenCount == .max)
      }
    }

    @Test func `stream snapshots read usage.input and usage.output`() async throws {
      let session = LanguageModelSession(
        model: ScriptedLanguageModel(script: toolLoopScript()), tools: [WeatherTool()],
        instructions: "Use tools.")
      var last: GenerationUsage?
      for try await snapshot in session.streamResponse(to: "Go") {
        last = snapshot.usage
      }
      let usage = try #require(last)
      #expect(usage.input.totalTokenCount == 50)
      #expect(usage.input.cachedTokenCount == 37)
      #expect(usage.output.totalTokenCount == 12)
    }

    @Test func `usage encodes nested and decodes the flat form of older records`() throws {
      let usage = GenerationUsage(
        input: .init(totalTokenCount: 7, cachedTokenCount: 5),
        output: .init(totalTokenCount: 3, reasoningTokenCount: 1))
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      let json = String(decoding: try encoder.encode(usage), as: UTF8.self)
      #expect(
        json
          == #"{"input":{"cachedTokenCount":5,"totalTokenCount":7},"output":{"reasoningTokenCount":1,"totalTokenCount":3}}"#
      )
      #expect(try JSONDecoder().decode(GenerationUsage.self, from: Data(json.utf8)) == usage)
      let flat =
        #"{"inputTokenCount":7,"cachedInputTokenCount":5,"outputTokenCount":3,"reasoningTokenCount":1}"#
      #expect(try JSONDecoder().decode(GenerationUsage.self, from: Data(flat.utf8)) == usage)
    }

    @Test func `a stored record with flat usage is still readable`() async throws {
      let session = LanguageModelSession(
        model: ScriptedLanguageModel(script: ModelScript([.text("hello", inputTokens: 11)])),
        instructions: "Hi"
      )
      _ = try await session.respond(to: "Go")
      let record = try #require(session.latestGenerationRecord)
      let data = try JSONEncoder().encode(record)
      var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      object["usage"] = [
        "inputTokenCount": 11, "cachedInputTokenCount": 2, "outputTokenCount": 2, "reasoningTokenCount": 0,
      ]
      let old = try JSONSerialization.data(withJSONObject: object)
      let decoded = try JSONDecoder().decode(GenerationRecord.self, from: old)
      #expect(decoded.usage.input.totalTokenCount == 11)
      #expect(decoded.usage.input.cachedTokenCount == 2)
      #expect(decoded.usage.output.totalTokenCount == 2)
      #expect(decoded.transcriptEntryCountMatches(record))
    }
  }

  @Suite("An unreported cached count stays unknown") struct UnknownCachedCount {
    @Test func `the nested form leaves cachedTokenCount out when unknown and reads it back`() throws {
      let unknown = GenerationUsage(input: .init(totalTokenCount: 7), output: .init(totalTokenCount: 1))
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      let json = String(decoding: try encoder.encode(unknown), as: UTF8.self)
      #expect(
        json == #"{"input":{"totalTokenCount":7},"output":{"reasoningTokenCount":0,"totalTokenCount":1}}"#)
      let decoded = try JSONDecoder().decode(GenerationUsage.self, from: Data(json.utf8))
      #expect(decoded.input.reportedCachedTokenCount == nil)
      let zero = try JSONDecoder().decode(
        GenerationUsage.Input.self, from: Data(#"{"totalTokenCount":7,"cachedTokenCount":0}"#.utf8))
      #expect(zero.reportedCachedTokenCount == 0)
    }

    @Test func `the flat form's zero reads as unknown, a positive count as reported`() throws {
      let zero = try JSONDecoder().decode(
        GenerationUsage.self, from: Data(#"{"inputTokenCount":7,"cachedInputTokenCount":0}"#.utf8))
      let some = try JSONDecoder().decode(
        GenerationUsage.self, from: Data(#"{"inputTokenCount":7,"cachedInputTokenCount":3}"#.utf8))
      #expect(zero.input.reportedCachedTokenCount == nil)
      #expect(some.input.reportedCachedTokenCount == 3)
    }

    @Test func `a sum is reported only when every generation with a prompt reported`() {
      let reported = GenerationUsage.Input(totalTokenCount: 10, cachedTokenCount: 4)
      let unknown = GenerationUsage.Input(totalTokenCount: 10)
      #expect((reported + reported).reportedCachedTokenCount == 8)
      #expect((reported + unknown).reportedCachedTokenCount == nil)
      #expect((unknown + reported).reportedCachedTokenCount == nil)
      #expect((GenerationUsage.Input.zero + reported).reportedCachedTokenCount == 4)
      #expect((reported + .zero).reportedCachedTokenCount == 4)
      #expect((reported + unknown).totalTokenCount == 20)
    }

    @Test func `a session that never hears about the cache reports it unknown`() async throws {
      let session = LanguageModelSession(
        model: ScriptedLanguageModel(script: ModelScript([.text("One."), .text("Two.")])), instructions: "Hi."
      )
      _ = try await session.respond(to: "a")
      let response = try await session.respond(to: "b")
      #expect(response.usage.input.totalTokenCount == 10)
      #expect(response.usage.input.reportedCachedTokenCount == nil)
      #expect(session.usage.input.reportedCachedTokenCount == nil)
      #expect(session.latestGenerationRecord?.usage.input.reportedCachedTokenCount == nil)
    }
  }
}
