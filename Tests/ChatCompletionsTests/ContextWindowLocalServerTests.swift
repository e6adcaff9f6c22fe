import AgentSkills
import ChatCompletions
import Foundation
import HistoryCompression
import LocalServerSupport
import ModelSession
import TestSupport
import Testing

/// The small-window server this test holds: one of the servers of `scripts/test`
/// started with a window of 1,024 tokens, which `CONTEXTKIT_TEST_SMALL_WINDOW_ENDPOINT`
/// names.
private var smallWindowEndpoint: URL? {
  ServerLease.held?.endpoint.flatMap { URL(string: $0) }
}

/// Conversations against a real server with a small window: relative
/// budgets, recovery when the server refuses, and the failure without compaction.
@Suite(
  .timeLimit(.minutes(20)), .holding(.smallWindow),
  .enabled(
    if: !ServerLease.smallWindow.endpoints.isEmpty,
    "CONTEXTKIT_TEST_SMALL_WINDOW_ENDPOINT is not set: the small-window server tests are skipped"))
struct ContextWindowLocalServerTests {
  static let turns = 30

  /// The server's model; a turn's first round offers only the tool the conversation chose.
  private func model() throws -> FirstRoundToolChoiceModel<ChatCompletionsLanguageModel> {
    FirstRoundToolChoiceModel(
      ChatCompletionsLanguageModel(
        name: "smollm2", baseURL: try #require(smallWindowEndpoint), apiKey: "sk-local-unused", timeout: 300,
        requestStyle: .llamaCppPython))
  }

  /// The assistant's instructions.
  static let instructions = "You are a travel assistant. Answer in one sentence."

  /// The conversation's profile: the instructions, `skills` and the weather
  /// tool, compacting past 80% of the window down to 50%, counting with
  /// `tokenCounter` (an estimate when `nil`).
  private func profile(skills: Skills, tokenCounter: (any TokenCounter)? = nil) -> some DynamicProfile {
    Profile {
      Instructions(Self.instructions)
      skills
      WeatherTool()
    }
    .compactingHistory(
      tokenBudget: .contextShare(0.8), target: .contextShare(0.5), tokenCounter: tokenCounter)
  }

  /// The packing-lists skill, written to `temporary` and loaded from there.
  private func skills(in temporary: TemporaryFolder) throws -> Skills {
    let root = temporary.url
    let folder = root.appendingPathComponent("packing-lists")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(
      """
      ---
      name: packing-lists
      description: Writes packing lists for trips. Use when asked what to pack.
      ---
      # Packing lists

      List clothes for the weather, then documents, then chargers. Keep each list under ten items.

      """.utf8
    ).write(to: folder.appendingPathComponent("SKILL.md"))
    let library = try SkillsLibrary(root: root, mode: .strict)
    return Skills(activations: SkillActivations(), skills: library.skills)
  }

  /// The prompt of turn `turn`: about 35 tokens, different every turn.
  private static func prompt(_ turn: Int) -> String {
    "Turn \(turn): I plan trip \(turn) to a mild city with museums. "
      + "Give one short tip on packing shoes, rain jackets or chargers."
  }

  /// The answer's room: short answers keep the turns fast on a shared machine.
  static let responseTokens = 8

  /// What a conversation's generation records said.
  private struct Notes {
    /// One per generation the session retried after the server refused it.
    var recoveries: [GenerationNote] = []
    /// One per compaction of the history.
    var compactions: [GenerationNote] = []
  }

  /// Plays the conversation: a skill activation in turn 1, a weather call
  /// every sixth turn; returns the recovery and compaction notes.
  private func converse(
    _ model: FirstRoundToolChoiceModel<ChatCompletionsLanguageModel>, profile: some DynamicProfile,
    turns: Int = turns
  ) async throws -> Notes {
    let stream: AsyncStream<GenerationRecord>
    let calls: [String]
    do {
      let session = LanguageModelSession(model: model, profile: profile)
      stream = session.generationRecords
      for turn in 0..<turns {
        let tool: String? = turn == 1 ? Skills.activateToolName : (turn % 6 == 5 ? "weather" : nil)
        model.choose(tool)
        let options = GenerationOptions(
          sampling: .greedy, maximumResponseTokens: Self.responseTokens,
          toolCallingMode: tool == nil ? nil : .required)
        try await session.respond(to: Self.prompt(turn), options: options)
      }
      calls = session.transcript.flatMap { entry -> [String] in
        if case .toolCalls(let calls) = entry { calls.calls.map(\.toolName) } else { [] }
      }
    }
    #expect(calls.contains(Skills.activateToolName))
    #expect(calls.contains("weather"))
    // The session is gone, so the stream ends after the records it buffered.
    var notes = Notes()
    for await record in stream {
      notes.recoveries += record.notes.filter { $0.kind == .contextOverflowRecovered }
      notes.compactions += record.notes.filter { $0.kind == .historyRewritten }
    }
    return notes
  }

  /// Teaches the model its window the only way llama-cpp-python tells it: a refusal.
  private func learnWindowFromARefusal(
    _ model: FirstRoundToolChoiceModel<ChatCompletionsLanguageModel>
  ) async throws {
    if model.base.learnedContextSize != nil { return }
    await #expect(throws: ContextSizeUnknownError.self) { try await model.base.contextSize }
    let session = LanguageModelSession(model: model.base, instructions: "Be brief.")
    let long = String(repeating: "museum rain jacket walking shoes charger ", count: 400)
    await #expect(throws: LanguageModelError.self) {
      try await session.respond(to: long, options: GenerationOptions(maximumResponseTokens: 8))
    }
    #expect(model.base.learnedContextSize == LearnedContextSize(size: 1_024, source: .contextLengthError))
  }

  @Test func `30 turns with tool calls and a skill fit at shares of the window the server gave`() async throws
  {
    let model = try model()
    try await learnWindowFromARefusal(model)
    let folder = try TemporaryFolder(named: "contextkit-window")
    defer { folder.remove() }
    let skills = try self.skills(in: folder)
    let notes = try await converse(model, profile: profile(skills: skills))
    print(
      "shares of the window: \(notes.compactions.count) compactions, \(notes.recoveries.count) recoveries "
        + "in \(Self.turns) turns")
    // The window was reached (30 turns are more than 1,024 tokens), and the budget kept every
    // prompt inside it.
    #expect(!notes.compactions.isEmpty)
    #expect(notes.recoveries.isEmpty, "\(notes.recoveries.map(\.message))")
  }

  @Test func `with a counter that counts half, 30 turns complete through recovery`() async throws {
    let model = try model()
    try await learnWindowFromARefusal(model)
    let folder = try TemporaryFolder(named: "contextkit-window")
    defer { folder.remove() }
    let skills = try self.skills(in: folder)
    let halfCounting = profile(
      skills: skills, tokenCounter: ScaledTokenCounter(EstimatingTokenCounter(), dividingBy: 2))
    let recoveries = try await converse(model, profile: halfCounting).recoveries
    print("half-counting: \(recoveries.count) recoveries: \(recoveries.map(\.message))")
    #expect(!recoveries.isEmpty)
    // The fit after a refusal holds for the later turns: a refusal now and then, not one every turn.
    #expect(recoveries.count <= 2)
    // Each names the server's window, in ContextKit's words and the server's.
    #expect(recoveries.allSatisfy { $0.message.contains("a window of 1024 tokens") })
    #expect(recoveries.allSatisfy { $0.message.contains("maximum context length is 1024 tokens") })
  }

  @Test func `without compaction the conversation fails at the first overflow with the server's numbers`()
    async throws
  {
    let model = try model()
    let session = LanguageModelSession(
      model: model.base,
      profile: Profile { Instructions(Self.instructions) })
    var failure: LanguageModelError.ContextSizeExceeded?
    var completed = 0
    for turn in 0..<Self.turns {
      do {
        // Four prompts a turn: the window fills in about seven turns.
        let prompt = (0..<4).map { Self.prompt(turn * 4 + $0) }.joined(separator: " ")
        let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: Self.responseTokens)
        try await session.respond(to: prompt, options: options)
        completed += 1
      } catch LanguageModelError.contextSizeExceeded(let payload) {
        failure = payload
        break
      }
    }
    let payload = try #require(failure, "\(Self.turns) turns fitted a 1,024-token window")
    print("without compaction: failed after \(completed) turns: \(payload.debugDescription)")
    #expect(completed > 0)
    #expect(payload.contextSize == 1_024)
    #expect(payload.tokenCount >= 1_024)
    #expect(payload.debugDescription.contains("maximum context length is 1024 tokens"))
    #expect(session.transcript.count == 1 + 2 * completed)
  }
}
