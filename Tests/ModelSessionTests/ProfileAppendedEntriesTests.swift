import Foundation
import ModelSession
import TestSupport
import Testing

/// A profile element that, at round 0, appends a call of `note` and its output
/// whenever the prompt's text contains `trigger`, and records each turn it saw.
private struct PromptWatcher: DynamicInstructions {
  var trigger: String
  var entries: @Sendable (Transcript.Prompt) -> [Transcript.Entry]
  var log: CallLog

  var body: ProfileContent {
    get async throws { Instructions("Watch the prompt.") }
  }

  func resolve(into resolution: inout ProfileResolution) async throws {
    try await body.resolve(into: &resolution)
    guard let turn = resolution.turn else {
      log.append("no turn")
      return
    }
    log.append("round \(turn.round), \(turn.history.count) stored")
    guard turn.round == 0, turn.prompt.segments.joinedText.contains(trigger) else { return }
    resolution.appendedEntries = entries(turn.prompt)
  }
}

private func notePair(id: String, text: String) -> [Transcript.Entry] {
  [
    .toolCalls(
      Transcript.ToolCalls(
        id: "calls-\(id)",
        [Transcript.ToolCall(id: id, toolName: "note", arguments: GeneratedContent(properties: [:]))])),
    .toolOutput(
      Transcript.ToolOutput(
        id: id, toolName: "note", segments: [.text(Transcript.TextSegment(content: text))])),
  ]
}

@Suite("Entries a profile appends", .timeLimit(.minutes(10))) struct ProfileAppendedEntriesTests {
  @Test func `go right after the prompt, are sent and stored with the turn, and leave the prompt as written`()
    async throws
  {
    let log = CallLog()
    let script = ModelScript([.text("answered"), .text("second")])
    let profile = Profile {
      PromptWatcher(trigger: "!note", entries: { _ in notePair(id: "n1", text: "A note.") }, log: log)
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "Please !note this")
    let sent = try #require(script.requests.first).transcript
    #expect(sent.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput"])
    #expect(
      session.transcript.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])
    guard case .prompt(let prompt) = session.transcript[1] else {
      Issue.record("entry 1 is not the prompt")
      return
    }
    #expect(prompt.segments.joinedText == "Please !note this")
    guard case .toolOutput(let output) = session.transcript[3] else {
      Issue.record("entry 3 is not the tool output")
      return
    }
    #expect(output.segments.joinedText == "A note.")
    // The generation record's stored history holds them too.
    #expect(
      session.latestGenerationRecord?.storedHistory.map(\.kindName).suffix(2) == ["toolCalls", "toolOutput"])

    // The next turn starts from the stored entries; nothing is appended twice.
    try await session.respond(to: "plain")
    #expect(
      script.requests[1].transcript.map(\.kindName) == [
        "instructions", "prompt", "toolCalls", "toolOutput", "response", "prompt",
      ])
    #expect(log.all == ["round 0, 1 stored", "round 0, 5 stored"])
  }

  @Test func `an instructions entry fails the turn with a typed error and stores nothing`() async throws {
    let log = CallLog()
    let script = ModelScript([.text("never")])
    let profile = Profile {
      PromptWatcher(
        trigger: "x",
        entries: { _ in [.instructions(Transcript.Instructions(segments: [], toolDefinitions: []))] },
        log: log)
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    await #expect(
      throws: LanguageModelSession.SessionError.invalidProfileEntry(
        reason: "entry 0 is an instructions entry; a conversation has one, at its start")
    ) { try await session.respond(to: "x") }
    #expect(script.playedCount == 0)
    #expect(session.transcript.isEmpty)
  }

  @Test func `a tool output that answers no call fails the turn`() async throws {
    let log = CallLog()
    let script = ModelScript([.text("never")])
    let profile = Profile {
      PromptWatcher(
        trigger: "x", entries: { _ in Array(notePair(id: "orphan", text: "?").dropFirst()) }, log: log)
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    await #expect(
      throws: LanguageModelSession.SessionError.invalidProfileEntry(
        reason: "entry 0 is the output of tool \"note\" with id \"orphan\", which answers no call before it")
    ) { try await session.respond(to: "x") }
    #expect(script.playedCount == 0)
    #expect(session.transcript.isEmpty)
  }

  @Test func `a tool output may answer a call that an earlier turn stored`() async throws {
    let log = CallLog()
    let script = ModelScript([.text("asked"), .text("answered")])
    let profile = Profile {
      PromptWatcher(
        trigger: "!",
        entries: { prompt in
          // The call in the first turn, its output in the second.
          let pair = notePair(id: "n1", text: "Late note.")
          return prompt.segments.joinedText == "!call" ? Array(pair.prefix(1)) : Array(pair.dropFirst())
        },
        log: log)
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "!call")
    try await session.respond(to: "!answer")
    #expect(
      session.transcript.map(\.kindName) == [
        "instructions", "prompt", "toolCalls", "response", "prompt", "toolOutput", "response",
      ])
  }

  @Test func `outside a session the turn is nil`() async throws {
    let log = CallLog()
    var resolution = ProfileResolution()
    try await PromptWatcher(trigger: "x", entries: { _ in [] }, log: log).resolve(into: &resolution)
    #expect(log.all == ["no turn"])
    #expect(resolution.appendedEntries.isEmpty)
  }
}
