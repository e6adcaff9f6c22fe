import AgentSkills
import Foundation
import HistoryCompression
import ModelSession
import TestSupport
import Testing

func activateSkill(_ name: String) -> ScriptStep {
  .toolCall(name: Skills.activateToolName, arguments: #"{"skill":"\#(name)"}"#)
}

/// The texts of the tool outputs in `transcript` that equal `body`, with their positions.
func positions(of body: String, in transcript: Transcript) -> [Int] {
  transcript.indices.filter { index in
    if case .toolOutput(let output) = transcript[index] { output.segments.joinedText == body } else { false }
  }
}

@Suite(.timeLimit(.minutes(10))) struct SkillCompactionTests {
  @Suite("Skills survive compaction") struct Survival {
    static let body = String(repeating: "Check every force unwrap. ", count: 16)  // 416 bytes: 104 tokens
    static let filler = String(repeating: "word ", count: 160)  // 800 bytes: 200 tokens
    static let report = String(repeating: "data ", count: 400)  // 2,000 bytes: 500 tokens

    @Test
    func `a prompt skill's body dropped in the middle of a tool loop is put back once, right after the cut`()
      async throws
    {
      let activations = SkillActivations()
      let script = ModelScript([
        activateSkill("swift-style"), .text("Styled."),  // turn 1 delivers the body
        .text(Self.filler), .text(Self.filler),  // turns 2 and 3 fill the history
        .toolCall(name: "fetch_report", arguments: "{}"),  // turn 4, round 0: 755 tokens
        activateSkill("swift-style"),  // round 1: 1,274 tokens, over the budget: compacted here
        .text("Done."),  // round 2
      ])
      let profile = Profile {
        "You review Swift code."
        Skills(activations: activations) {
          Skill(name: "swift-style", description: "Style rules", prompt: Self.body)
        }
        ReportTool(text: Self.report)
      }
      // Nothing pinned: turn 1 goes at the cut. The copy (the call and the
      // 104-token body, about 125 tokens) fits a quarter of the 600-token target: 150.
      .compactingHistory(tokenBudget: 1_200, target: 600, pinnedTokens: 0)
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
      let recordStream = session.generationRecords
      for prompt in ["Review A", "Tell me more", "And more", "Fetch the report"] {
        try await session.respond(to: prompt)
      }
      let records = await firstRecords(recordStream, count: 7)
      let requests = script.requests
      // Before the compaction the body sits where turn 1 delivered it (instructions, prompt, call, output).
      #expect(positions(of: Self.body, in: requests[4].transcript) == [3])
      // Round 1 of turn 4 compacts: turns 1 to 3 go, the body comes back right after the instructions.
      let compacted = records[5]
      #expect(compacted.round == 1)
      #expect(compacted.notes.contains { $0.kind == .historyRewritten })
      #expect(
        compacted.notes.contains {
          $0.kind == .information && $0.names(.putBack).contains("skill:swift-style")
        }
      )
      #expect(!compacted.notes.contains { $0.kind == .contextLeftOut })
      for request in requests[5...] {
        #expect(positions(of: Self.body, in: request.transcript) == [2])
        guard case .toolCalls(let calls) = request.transcript[1], let call = calls.calls.first else {
          Issue.record("no call before the re-attached body")
          continue
        }
        #expect(call.toolName == Skills.activateToolName)
        #expect(request.transcript[3].kindName == "prompt")
      }
      // The re-attached copy is the same, byte for byte, in every later request: the prefix is stable.
      // (Entries after the instructions; the catalog's segment ids are new at every generation.)
      let prefixes = requests[5...].map { Array($0.transcript.entries[1..<4]) }
      #expect(prefixes.allSatisfy { $0 == prefixes.first })
      // The model sees the body, so activating again only says so, and the skill counts as loaded.
      let outputs = session.transcript.compactMap { entry -> String? in
        if case .toolOutput(let output) = entry { output.segments.joinedText } else { nil }
      }
      #expect(outputs.filter { $0 == Self.body }.count == 1)
      #expect(outputs.last?.contains("already loaded") == true)
      #expect(activations.loadedSkillNames == ["swift-style"])
      // The stored transcript is untouched: no copy in it.
      #expect(positions(of: Self.body, in: session.transcript) == [3])
      // Every request kept the budget.
      let counter = EstimatingTokenCounter()
      for request in requests {
        let total = counter.tokenCounts(of: request.transcript.entries).reduce(0, +)
        #expect(total <= 1_200)
      }
    }

    @Test
    func
      `droppingCompletedToolCalls lets a delivered body go after its turn; loading it again brings it back`()
      async throws
    {
      let activations = SkillActivations()
      let script = ModelScript([
        activateSkill("swift-style"), .text("Styled."),  // turn 1 loads the body
        .text("Plain."),  // turn 2: the body has left with turn 1's call
        activateSkill("swift-style"), .text("Styled again."),  // turn 3 loads it again
      ])
      let profile = Profile {
        "You review Swift code."
        Skills(activations: activations) {
          Skill(name: "swift-style", description: "Style rules", prompt: Self.body)
        }
      }
      .droppingCompletedToolCalls()
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
      let recordStream = session.generationRecords
      for prompt in ["Review A", "Anything else?", "Review B"] { try await session.respond(to: prompt) }
      let records = await firstRecords(recordStream, count: 5)
      let requests = script.requests
      // Turn 1, round 1: the body the model just loaded is in view.
      #expect(positions(of: Self.body, in: requests[1].transcript) == [3])
      // Turn 2: instructions, the first prompt, its answer, the new prompt; no call, no body.
      #expect(requests[2].transcript.map(\.kindName) == ["instructions", "prompt", "response", "prompt"])
      let leftOut = records[2].notes.filter { $0.kind == .contextLeftOut }
      #expect(leftOut.count == 1)
      #expect(leftOut.first?.message.hasPrefix("\"skill:swift-style\"") == true)
      // Turn 3: the tool delivers the body again, not "already loaded".
      #expect(positions(of: Self.body, in: requests[4].transcript) == [7])
      // The stored transcript keeps every entry: both deliveries are in it.
      #expect(positions(of: Self.body, in: session.transcript).count == 2)
    }

    @Test func `the copies' share is one of the compaction's target, not of the budget`() async throws {
      let script = ModelScript([
        activateSkill("swift-style"), .text("Styled."),  // turn 1 delivers the body
        .text(Self.filler), .text(Self.filler),  // turns 2 and 3 fill the history
        .toolCall(name: "fetch_report", arguments: "{}"),  // turn 4, round 0
        .text("Done."),  // round 1: over the budget, compacted here
      ])
      let profile = Profile {
        "You review Swift code."
        Skills(activations: SkillActivations()) {
          Skill(name: "swift-style", description: "Style rules", prompt: Self.body)
        }
        ReportTool(text: Self.report)
      }
      // A quarter of the 480-token target is 120 tokens: the copy (the call
      // and the 104-token body) does not fit, though a quarter of the
      // 1,200-token budget (300) would hold it.
      .compactingHistory(tokenBudget: 1_200, target: 480, pinnedTokens: 0)
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
      let recordStream = session.generationRecords
      for prompt in ["Review A", "Tell me more", "And more", "Fetch the report"] {
        try await session.respond(to: prompt)
      }
      let compacted = try #require(await firstRecords(recordStream, count: 6).last)
      #expect(compacted.notes.contains { $0.kind == .historyRewritten })
      let leftOut = compacted.notes.filter { $0.kind == .contextLeftOut }
      #expect(leftOut.map(\.names) == [[.keys: ["skill:swift-style"], .reason: ["overShare"]]])
      #expect(leftOut.first?.counts[.budget] == 120)
      #expect(positions(of: Self.body, in: script.requests[5].transcript).isEmpty)
    }
  }

  @Suite("Re-attached skills and the prefix a cache keeps") struct CachePrefix {
    static let body = Survival.body  // 104 tokens
    static let firstAnswer = String(repeating: "word ", count: 200)  // 1,000 bytes: 250 tokens
    static let filler = Survival.filler  // 200 tokens
    static let report = Survival.report  // 500 tokens

    /// Turn 1 (about 260 tokens) fits the pinned allowance (five eighths of
    /// the 480-token target: 300 tokens); turn 2 delivers the skill; turns 3
    /// and 4 fill; turn 5's report puts the history over 1,200. The copy
    /// (about 125 tokens) fits the retention share, half of the target: 240.
    func run(
      summarizer: (any LanguageModel)?, summarizeHistory: Bool = false
    ) async throws -> (
      ModelScript, [GenerationRecord]
    ) {
      let activations = SkillActivations()
      let script = ModelScript([
        .text(Self.firstAnswer),
        activateSkill("swift-style"), .text("Styled."),
        .text(Self.filler), .text(Self.filler),
        .toolCall(name: "fetch_report", arguments: "{}"), .text("Done."),
      ])
      var skills = Skills(activations: activations) {
        Skill(name: "swift-style", description: "Style rules", prompt: Self.body)
      }
      skills.retention = ContextRetention(budgetShare: 0.5)
      let profile = Profile {
        "You review Swift code."
        skills
        ReportTool(text: Self.report)
      }
      let model = ScriptedLanguageModel(script: script)
      let session =
        if summarizeHistory, let summarizer {
          LanguageModelSession(
            model: model, profile: profile.summarizeHistory(threshold: .tokens(1_200), model: summarizer))
        } else {
          LanguageModelSession(
            model: model,
            profile: profile.compactingHistory(tokenBudget: 1_200, target: 480, model: summarizer)
          )
        }
      let recordStream = session.generationRecords
      for prompt in ["Review A", "Use the style", "Tell me more", "And more", "Fetch the report"] {
        try await session.respond(to: prompt)
      }
      return (script, await firstRecords(recordStream, count: 7))
    }

    @Test func `pinned turns and the re-attached body share the pinned allowance`() async throws {
      let (script, records) = try await run(summarizer: nil)
      let compacted = try #require(records.firstIndex { $0.notes.contains { $0.kind == .historyRewritten } })
      #expect(
        records[compacted].notes.contains {
          $0.kind == .information && $0.message.contains("\"skill:swift-style\"")
        })
      // Turn 1 (260 tokens) and the copy (about 125) would pass 300 together: turn 1
      // goes, and the copy sits right after the instructions, where turn 1 was.
      let request = script.requests[compacted].transcript
      #expect(positions(of: Self.body, in: request) == [2])
      #expect(
        !request.contains { entry in
          if case .prompt(let prompt) = entry { prompt.segments.joinedText == "Review A" } else { false }
        })
    }

    @Test(arguments: [false, true])
    func `the summary stays right after the instructions, before the copies, where a backstop keeps it`(
      summarizeHistory: Bool
    ) async throws {
      let summarizer = ScriptedLanguageModel(script: ModelScript([.text("They reviewed code.")]))
      let (script, records) = try await run(summarizer: summarizer, summarizeHistory: summarizeHistory)
      let compacted = try #require(records.firstIndex { $0.notes.contains { $0.kind == .historyRewritten } })
      let request = script.requests[compacted].transcript
      // A modifier run after this one (a larger rollingWindow as a backstop)
      // keeps the instructions and the summaries right after them.
      #expect(request[1].isHistorySummary)
      #expect(positions(of: Self.body, in: request) == [3])
    }

    /// A tool whose reply is retained context under one key.
    struct StyleGuideTool: Tool {
      let name = "style_guide"
      let description = "Returns the style guide."
      var parameters: GenerationSchema {
        (try? GenerationSchema(root: DynamicGenerationSchema(name: "Empty", properties: []), dependencies: []))
          ?? String.generationSchema
      }
      func call(arguments: GeneratedContent) async throws -> RetainedContext {
        RetainedContext(key: "style-guide", content: CachePrefix.body)
      }
    }

    @Test func `context delivered again after the cut is in view once, not also as a copy`() async throws {
      let script = ModelScript([
        .toolCall(name: "style_guide", arguments: "{}"), .text("Noted."),  // turn 1 delivers it
        .text(Self.filler), .text(Self.filler), .text(Self.filler),  // turns 2 to 4
        .toolCall(name: "fetch_report", arguments: "{}"),  // turn 5, round 0
        // Round 1: over the budget, compacted; the model asks for the guide again.
        .toolCall(name: "style_guide", arguments: "{}"),
        .text("Done."),  // round 2
      ])
      let profile = Profile {
        "You review Swift code."
        ReportTool(text: Self.report)
        StyleGuideTool()
      }
      // A quarter of the target holds the copy.
      .compactingHistory(tokenBudget: 1_200, target: 600, pinnedTokens: 0)
      let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
      for prompt in ["Review A", "Tell me more", "And more", "Even more", "Fetch the report"] {
        try await session.respond(to: prompt)
      }
      let requests = script.requests
      // Round 1 is compacted: turn 1 goes, its output comes back as a copy right after the instructions.
      #expect(positions(of: Self.body, in: requests[6].transcript) == [2])
      // Round 2 holds the new delivery: the copy goes, the new one stays.
      let last = requests[7].transcript
      let found = positions(of: Self.body, in: last)
      #expect(found.count == 1)
      #expect(found.first == last.count - 1)
    }
  }
}
