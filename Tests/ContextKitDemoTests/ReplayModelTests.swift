import ContextKitDemo
import Foundation
import HistoryCompression
import ModelSession
import TestSupport
import Testing

private func conversation() -> ReplayConversation {
  ReplayConversation(
    name: "tiny", instructions: "Be brief.", budget: 1_000,
    tools: [
      ReplayToolSpec(
        name: "read_file", description: "Reads a file.", parameter: "path", parameterDescription: "The path.",
        outputs: ["a.swift": "let a = 1"])
    ], usesSkills: false,
    turns: [
      ReplayTurn(
        prompt: "Read a.swift",
        generations: [
          .calls(
            [ReplayToolCall(tool: "read_file", parameter: "path", value: "a.swift")], reasoning: "Look first."
          ),
          .answer("It sets a to 1."),
        ]),
      ReplayTurn(prompt: "Thanks", generations: [.answer("You're welcome.")]),
    ])
}

@Suite("Replay model", .timeLimit(.minutes(10))) struct ReplayModelTests {
  @Test func `a session plays the recording: reasoning, tool calls with stable ids, answers`() async throws {
    let recorded = conversation()
    let model = ReplayLanguageModel(conversation: recorded)
    let session = LanguageModelSession(
      model: model, tools: [try ReplayTool(spec: recorded.tools[0])], instructions: Instructions("Be brief."))
    let first = try await session.respond(to: "Read a.swift")
    let second = try await session.respond(to: "Thanks")
    #expect(first.content == "It sets a to 1.")
    #expect(second.content == "You're welcome.")
    let kinds = session.transcript.entries.map(\.kindName)
    #expect(
      kinds == [
        "instructions", "prompt", "reasoning", "toolCalls", "toolOutput", "response", "prompt", "response",
      ])
    guard case .toolCalls(let calls) = session.transcript.entries[3] else {
      Issue.record("expected tool calls")
      return
    }
    #expect(calls.calls.map(\.id) == ["call_0_0_0"])
    #expect(model.cursor.playedCount == 3)
  }

  @Test func `with a window, a request that does not fit is refused and the recording does not move on`()
    async throws
  {
    // "Be brief." and "Thanks", without tools: (4 + 3) + (4 + 2) = 13 tokens.
    let recorded = ReplayConversation(
      name: "plain", instructions: "Be brief.", budget: 100, tools: [], usesSkills: false,
      turns: [ReplayTurn(prompt: "Thanks", generations: [.answer("You're welcome.")])])
    let small = ReplayLanguageModel(conversation: recorded, contextSize: 12)
    let refused = LanguageModelSession(model: small, instructions: Instructions("Be brief."))
    do {
      _ = try await refused.respond(to: "Thanks")
      Issue.record("the request was not refused")
    } catch LanguageModelError.contextSizeExceeded(let refusal) {
      #expect(refusal.contextSize == 12)
      #expect(refusal.tokenCount == 13)
    }
    #expect(small.cursor.requestCount == 0)
    #expect(refused.transcript.entries.map(\.kindName) == ["instructions"])

    // The tokens reserved for the answer count: 13 + 1 do not fit 13.
    let reserving = LanguageModelSession(
      model: ReplayLanguageModel(conversation: recorded, contextSize: 13),
      instructions: Instructions("Be brief."))
    do {
      _ = try await reserving.respond(to: "Thanks", options: GenerationOptions(maximumResponseTokens: 1))
      Issue.record("the request was not refused")
    } catch LanguageModelError.contextSizeExceeded(let refusal) {
      #expect(refusal.contextSize == 13)
      #expect(refusal.tokenCount == 13)
    }

    let fitting = ReplayLanguageModel(conversation: recorded, contextSize: 13)
    let session = LanguageModelSession(model: fitting, instructions: Instructions("Be brief."))
    #expect(try await session.respond(to: "Thanks").content == "You're welcome.")
    #expect(fitting.cursor.playedCount == 1)
  }

  @Test func `a summary written in front of the turn's prompt does not put the recording out of step`()
    async throws
  {
    // Over 3 entries at "Thanks" (instructions, the first turn's 5 entries, the prompt), the first
    // turn is summarized and the summary is written in front of "Thanks", the only prompt kept.
    let recorded = conversation()
    let summarizer = ScriptedLanguageModel(script: ModelScript([.text("The user read a.swift.")]))
    let tool = try ReplayTool(spec: recorded.tools[0])
    let session = LanguageModelSession(
      model: ReplayLanguageModel(conversation: recorded),
      profile: Profile {
        "Be brief."
        tool
      }
      .summarizeHistory(entryThreshold: 3, model: summarizer, options: .init(store: SummaryStore())))
    _ = try await session.respond(to: "Read a.swift")
    #expect(try await session.respond(to: "Thanks").content == "You're welcome.")
    #expect(session.transcript.entries.map(\.kindName) == ["instructions", "prompt", "response"])
    #expect(session.transcript.entries[1].containsHistorySummary)
  }

  @Test func `a prompt the recording does not expect is a typed error`() async throws {
    let session = LanguageModelSession(model: ReplayLanguageModel(conversation: conversation()))
    await #expect(throws: (any Error).self) {
      try await session.respond(to: "Something else")
    }
    let error = ReplayError.outOfStep(
      conversation: "tiny", turn: 0, expected: "Read a.swift", found: "Something else")
    #expect(error.description.contains("turn 0"))
  }

  @Test func `a tool argument without a recorded output is a typed error`() async throws {
    let tool = try ReplayTool(spec: conversation().tools[0])
    await #expect(throws: ReplayError.unrecordedToolCall(tool: "read_file", argument: "b.swift")) {
      _ = try await tool.call(arguments: GeneratedContent(json: #"{"path":"b.swift"}"#))
    }
  }

  @Test func `the summarizer is deterministic, bounded and counts its calls`() async throws {
    let summarizer = ReplaySummarizer(wordLimit: 12)
    let session = LanguageModelSession(model: summarizer)
    let text = (0..<50).map { "line \($0) with a few more words here" }.joined(separator: "\n")
    let first = try await session.respond(to: text).content
    let again = try await LanguageModelSession(model: summarizer).respond(to: text).content
    #expect(first == again)
    #expect(first.split(separator: " ").count == 12)
    #expect(summarizer.callCount == 2)
  }
}
