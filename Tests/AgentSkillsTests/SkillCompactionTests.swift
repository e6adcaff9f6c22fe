import AgentSkills
import Foundation
import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// A tool that answers with a fixed, long text: it fills the history.
struct ReportTool: Tool {
  let name = "fetch_report"
  let description = "Fetches the long report."
  let text: String
  var parameters: GenerationSchema {
    (try? GenerationSchema(root: DynamicGenerationSchema(name: "Empty", properties: []), dependencies: []))
      ?? String.generationSchema
  }
  func call(arguments: GeneratedContent) async throws -> String { text }
}

func activateSkill(_ name: String) -> ScriptStep {
  .toolCall(name: Skills.activateToolName, arguments: #"{"skill":"\#(name)"}"#)
}

/// The texts of the tool outputs in `transcript` that equal `body`, with their positions.
func positions(of body: String, in transcript: Transcript) -> [Int] {
  transcript.indices.filter { index in
    if case .toolOutput(let output) = transcript[index] { output.segments.joinedText == body } else { false }
  }
}

func collectRecords(_ stream: AsyncStream<GenerationRecord>, count: Int) async -> [GenerationRecord] {
  var records: [GenerationRecord] = []
  for await record in stream {
    records.append(record)
    if records.count == count { break }
  }
  return records
}

@Suite(.timeLimit(.minutes(10))) struct `Skills survive compaction` {
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
    .compactingHistory(budget: 1_200, pinnedTokens: 0)  // nothing pinned: turn 1 goes at the cut
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    let recordStream = session.generationRecords
    for prompt in ["Review A", "Tell me more", "And more", "Fetch the report"] {
      try await session.respond(to: prompt)
    }
    let records = await collectRecords(recordStream, count: 7)
    let requests = script.requests
    // Before the compaction the body sits where turn 1 delivered it (instructions, prompt, call, output).
    #expect(positions(of: Self.body, in: requests[4].transcript) == [3])
    // Round 1 of turn 4 compacts: turns 1 to 3 go, the body comes back right after the instructions.
    let compacted = records[5]
    #expect(compacted.round == 1)
    #expect(compacted.notes.contains { $0.kind == .historyRewritten })
    #expect(
      compacted.notes.contains { $0.kind == .information && $0.message.contains("\"skill:swift-style\"") })
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
}
