import Foundation
import ModelSession
import Synchronization
import TestSupport
import Testing

/// Appends a marker response to the history, and logs its name, so order shows.
struct MarkingModifier: DynamicProfileModifier {
  var name: String
  var log: CallLog

  func transformHistory(_ history: Transcript, in context: ProfileModifierContext) async throws -> Transcript
  {
    log.append(name)
    var history = history
    history.append(.response(Transcript.Response(id: "mark-\(name)", assetIDs: [], segments: [])))
    return history
  }
}

@Suite("Dynamic profiles", .timeLimit(.minutes(10))) struct ProfileTests {
  @Test func `modifiers apply outside-in: the last written sees the history first`() async throws {
    let log = CallLog()
    let script = ModelScript([.text("ok")])
    let profile = Profile { "Be brief." }
      .modifier(MarkingModifier(name: "a", log: log))
      .modifier(MarkingModifier(name: "b", log: log))
      .modifier(MarkingModifier(name: "c", log: log))
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "hi")
    #expect(log.all == ["c", "b", "a"])
    let sent = try #require(script.requests.first).transcript
    #expect(sent.suffix(3).map(\.id) == ["mark-c", "mark-b", "mark-a"])
    let record = try #require(session.latestGenerationRecord)
    #expect(record.stages.map(\.name) == ["c", "b", "a"])
    #expect(record.stages[0].transcript.count == record.storedHistory.count + 1)
    #expect(record.stages[2].transcript == record.sentTranscript)
    #expect(record.storedHistory.map(\.kindName) == ["instructions", "prompt"])
    // The stored transcript keeps no marker.
    #expect(session.transcript.map(\.kindName) == ["instructions", "prompt", "response"])
  }

  @Test func `onPrompt runs before every generation of a tool loop`() async throws {
    let rounds = CallLog()
    let script = ModelScript([
      .toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#),
      .toolCall(name: "weather", arguments: #"{"city":"Rome"}"#),
      .text("done"),
    ])
    let profile = Profile { WeatherTool() }.onPrompt { context in
      rounds.append("\(context.turnIndex):\(context.round)")
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "go")
    #expect(rounds.all == ["0:0", "0:1", "0:2"])
  }

  @Test func `an onPrompt error fails the turn`() async throws {
    struct Refused: Error {}
    let script = ModelScript([.text("never")])
    let profile = Profile { "x" }.onPrompt { _ in throw Refused() }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    await #expect(throws: Refused.self) { try await session.respond(to: "go") }
    #expect(script.playedCount == 0)
  }

  @Test func `historyTransform changes what the model sees, not what is stored`() async throws {
    let script = ModelScript([.text("one"), .text("two")])
    let profile = Profile { "Keep it short." }.historyTransform { history in
      Transcript(entries: history.filter { if case .response = $0 { false } else { true } })
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "first")
    try await session.respond(to: "second")
    let sent = script.requests[1].transcript
    #expect(sent.map(\.kindName) == ["instructions", "prompt", "prompt"])
    #expect(
      session.transcript.map(\.kindName) == ["instructions", "prompt", "response", "prompt", "response"])
  }

  @Test func `the profile is evaluated again before each generation`() async throws {
    let mode = Mutex("calm")
    let script = ModelScript([.toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#), .text("done")])
    let weather = WeatherTool()
    struct Mood: DynamicInstructions {
      let mode: @Sendable () -> String
      var body: ProfileContent {
        get async throws {
          if mode() == "calm" { "Be calm." } else { "Be excited!" }
        }
      }
    }
    let profile = Profile {
      Mood(mode: { mode.withLock { $0 } })
      weather
    }
    .onPrompt { _ in mode.withLock { $0 = $0 == "calm" ? "excited" : "calm" } }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "go")
    let instructions = script.requests.map { request -> String in
      guard case .instructions(let entry) = request.transcript.first else { return "" }
      return entry.segments.joinedText
    }
    // onPrompt runs before the profile is read: calm → excited for the first generation.
    #expect(instructions.count == 2)
    #expect(instructions[0] != instructions[1])
    #expect(Set(instructions) == ["Be calm.", "Be excited!"])
    #expect(script.requests.allSatisfy { $0.enabledToolDefinitions.map(\.name) == ["weather"] })
  }

  @Test func `builders take if, else and for`() async throws {
    let script = ModelScript([.text("ok")])
    let rules = ["Rule one.", "Rule two."]
    let verbose = false
    let profile = Profile {
      "Intro."
      for rule in rules { rule }
      if verbose { "Say a lot." } else { "Say little." }
    }
    .temperature(0.25)
    .reasoningLevel(.high)
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "go")
    let request = try #require(script.requests.first)
    guard case .instructions(let entry) = request.transcript.first else {
      Issue.record("no instructions"); return
    }
    #expect(
      entry.segments.map { if case .text(let text) = $0 { text.content } else { "" } } == [
        "Intro.", "Rule one.", "Rule two.", "Say little.",
      ])
    #expect(request.generationOptions.temperature == 0.25)
    #expect(request.contextOptions.reasoningLevel == .high)
  }

  @Test func `the profile's temperature holds in every round of a turn, not only the first`() async throws {
    let script = ModelScript([.toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#), .text("Mild.")])
    let profile = Profile { WeatherTool() }.temperature(0.25)
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "Weather?")
    #expect(script.requests.map(\.generationOptions.temperature) == [0.25, 0.25])
  }

  @Test func `outer settings win over the settings of the profile they wrap`() async throws {
    let script = ModelScript([.text("ok")])
    let profile = Profile { "x" }.temperature(0.2).reasoningLevel(.low).temperature(0.7).reasoningLevel(.high)
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "go")
    let request = try #require(script.requests.first)
    #expect(request.generationOptions.temperature == 0.7)
    #expect(request.contextOptions.reasoningLevel == .high)
  }

  @Test func `onPrompt actions run outside-in, the one written last first`() async throws {
    let script = ModelScript([.text("ok")])
    let log = CallLog()
    let profile = Profile { "x" }.onPrompt { _ in log.append("written first") }.onPrompt { _ in
      log.append("written last")
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "go")
    #expect(log.all == ["written last", "written first"])
  }

  @Test func `generation records are streamed, one per generation`() async throws {
    let script = ModelScript([.toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#), .text("done")])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [WeatherTool()])
    let records = session.generationRecords
    try await session.respond(to: "go")
    var received: [GenerationRecord] = []
    for await record in records {
      received.append(record)
      if received.count == 2 { break }
    }
    #expect(received.map(\.round) == [0, 1])
    #expect(received[0].output.map(\.kindName) == ["toolCalls"])
    #expect(
      received[1].storedHistory.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput"])
    #expect(received[1].toolDefinitions.map(\.name) == ["weather"])
    let encoded = try JSONEncoder().encode(received[1])
    #expect(try JSONDecoder().decode(GenerationRecord.self, from: encoded) == received[1])
  }

  @Test func `one executor per configuration, reused across turns, and prewarm reaches it`() async throws {
    let script = ModelScript([.text("a"), .text("b")])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
    #expect(script.executorsCreated == 0)
    try await session.respond(to: "1")
    try await session.respond(to: "2")
    #expect(script.executorsCreated == 1)
    session.prewarm(promptPrefix: Prompt("Next"))
    #expect(script.executorsCreated == 1)
    #expect(script.prewarmedTranscripts.last?.last?.kindName == "prompt")
    let other = LanguageModelSession(model: ScriptedLanguageModel(script: script, variant: "other"))
    other.prewarm()
    #expect(script.executorsCreated == 2)
  }
}
