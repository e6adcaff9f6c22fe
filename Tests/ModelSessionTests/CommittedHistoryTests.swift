import Foundation
import ModelSession
import TestSupport
import Testing

/// A modifier that, once the conversation after the instructions is longer
/// than `limit` entries, keeps only the turn that is running (from its
/// prompt on) and commits that history, as a history modifier's result is
/// the session's history in the framework.
private struct KeepingCurrentTurn: DynamicProfileModifier {
  let limit: Int
  let commits: Bool

  func transformHistory(_ history: Transcript, in context: ProfileModifierContext) async throws -> Transcript
  {
    let conversation = history.entries.filter { entry in
      if case .instructions = entry { false } else { true }
    }
    guard conversation.count > limit,
      let start = history.entries.lastIndex(where: { if case .prompt = $0 { true } else { false } })
    else { return history }
    var kept = Array(history.entries.prefix { if case .instructions = $0 { true } else { false } })
    kept.append(contentsOf: history.entries[start...])
    if commits { context.commitHistory() }
    return Transcript(entries: kept)
  }
}

/// Each entry as its kind and text, for comparisons by content.
private func contents(_ transcript: Transcript) -> [String] {
  transcript.map { "\($0.kindName): \($0.segments.joinedText)" }
}

@Suite("A history a modifier commits", .timeLimit(.minutes(10))) struct CommittedHistoryTests {
  static func session(script: ModelScript, limit: Int = 2, commits: Bool = true) -> LanguageModelSession {
    LanguageModelSession(
      profile: Profile { "Be brief." }.modifier(KeepingCurrentTurn(limit: limit, commits: commits))
        .model(ScriptedLanguageModel(script: script)))
  }

  @Test func `becomes the session's transcript, and the full transcript keeps every entry`() async throws {
    let script = ModelScript([.text("one"), .text("two")])
    let session = Self.session(script: script)
    try await session.respond(to: "first")
    // After the instructions: prompt, response, prompt = 3 entries, over the limit of 2.
    try await session.respond(to: "second")
    #expect(
      contents(session.transcript) == [
        "instructions: Be brief.", "prompt: second", "response: two",
      ])
    #expect(
      contents(session.fullTranscript) == [
        "instructions: Be brief.", "prompt: first", "response: one", "prompt: second", "response: two",
      ])
  }

  @Test func `the next generation starts from the committed history`() async throws {
    let script = ModelScript([.text("one"), .text("two"), .text("three")])
    let session = Self.session(script: script, limit: 3)
    var records = session.generationRecords.makeAsyncIterator()
    try await session.respond(to: "first")
    try await session.respond(to: "second")
    // 5 entries after the instructions: over 3, so the third turn's history is cut to its prompt and committed.
    try await session.respond(to: "third")
    _ = await records.next()
    _ = await records.next()
    let third = try #require(await records.next())
    // The record keeps the stored history as it was before the modifier ran.
    #expect(
      contents(third.storedHistory) == [
        "instructions: Be brief.", "prompt: first", "response: one", "prompt: second", "response: two",
        "prompt: third",
      ])
    #expect(contents(third.sentTranscript) == ["instructions: Be brief.", "prompt: third"])
    #expect(contents(session.transcript) == ["instructions: Be brief.", "prompt: third", "response: three"])
    // A fourth turn: under the limit again, the model is sent the committed history plus the new prompt.
    script.append(.text("four"))
    try await session.respond(to: "fourth")
    let sent = try #require(script.requests.last).transcript
    #expect(
      contents(sent) == [
        "instructions: Be brief.", "prompt: third", "response: three", "prompt: fourth",
      ])
    #expect(session.fullTranscript.count == 9)
  }

  @Test func `a turn that fails after the commit commits nothing`() async throws {
    struct Refused: Error {}
    let script = ModelScript([.text("one"), .failure(Refused())])
    let session = Self.session(script: script)
    try await session.respond(to: "first")
    let before = session.transcript
    await #expect(throws: Refused.self) { try await session.respond(to: "second") }
    #expect(session.transcript == before)
    #expect(session.fullTranscript == before)
  }

  @Test func `a modifier that does not commit only shapes what the model sees`() async throws {
    let script = ModelScript([.text("one"), .text("two")])
    let session = Self.session(script: script, commits: false)
    try await session.respond(to: "first")
    try await session.respond(to: "second")
    #expect(
      contents(try #require(script.requests.last).transcript) == [
        "instructions: Be brief.", "prompt: second",
      ])
    #expect(
      contents(session.transcript) == [
        "instructions: Be brief.", "prompt: first", "response: one", "prompt: second", "response: two",
      ])
    #expect(session.fullTranscript == session.transcript)
  }

  @Test func `a commit inside a tool loop keeps the turn's later rounds after it`() async throws {
    let script = ModelScript([
      .text("one"), .toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#), .text("cold"),
    ])
    let session = LanguageModelSession(
      profile: Profile {
        "Be brief."
        WeatherTool()
      }
      .modifier(KeepingCurrentTurn(limit: 2, commits: true))
      .model(ScriptedLanguageModel(script: script)))
    try await session.respond(to: "first")
    try await session.respond(to: "weather?")
    let kinds = session.transcript.map(\.kindName)
    #expect(kinds == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])
    #expect(
      session.fullTranscript.map(\.kindName) == ["instructions", "prompt", "response"] + kinds.dropFirst())
  }
}
