import Foundation
import TestSupport
import Testing

@testable import ModelSession

/// The steps of a turn, each on its own: the ledger, the round's setup, the
/// modifier pipeline and the capability check.
@Suite(.timeLimit(.minutes(10)))
struct TurnStepsTests {
  private static func prompt(_ text: String, id: String) -> Transcript.Prompt {
    Transcript.Prompt(id: id, segments: [.text(.init(id: id + "-t", content: text))])
  }

  private static func response(_ text: String, id: String) -> Transcript.Entry {
    .response(
      Transcript.Response(id: id, assetIDs: [], segments: [.text(.init(id: id + "-t", content: text))]))
  }

  private static let image = Transcript.Segment.attachment(
    .init(content: .image(.init(data: Data([1, 2, 3]), mimeType: "image/png"))))

  @Test func `the ledger keeps the stored instructions id and commits the latest instructions`() throws {
    let old = Transcript.Instructions(
      id: "kept", segments: [.text(.init(content: "old"))], toolDefinitions: [])
    let stored = Transcript(entries: [
      .instructions(old), .prompt(Self.prompt("hi", id: "p0")), Self.response("hello", id: "r0"),
    ])
    var ledger = TurnLedger(stored: stored, prompt: Self.prompt("again", id: "p1"), makeID: { "fresh" })
    #expect(ledger.instructionsID == "kept")
    #expect(ledger.conversation.map(\.id) == ["p0", "r0"])
    ledger.append(generated: [Self.response("done", id: "r1")], usage: .zero)
    let latest = Transcript.Instructions(
      id: "kept", segments: [.text(.init(content: "new"))], toolDefinitions: [])
    ledger.latestInstructions = latest
    let committed = ledger.committedTranscript
    #expect(committed.map(\.id) == ["kept", "p0", "r0", "p1", "r1"])
    guard case .instructions(let instructions) = committed.first else {
      Issue.record("the committed transcript does not start with instructions")
      return
    }
    #expect(instructions.segments.joinedText == "new")
  }

  @Test func `the ledger makes an instructions id when the stored transcript has none`() {
    let stored = Transcript(entries: [.prompt(Self.prompt("hi", id: "p0"))])
    let ledger = TurnLedger(stored: stored, prompt: Self.prompt("again", id: "p1"), makeID: { "fresh" })
    #expect(ledger.instructionsID == "fresh")
    #expect(ledger.conversation.map(\.id) == ["p0"])
    #expect(ledger.storedHistory(instructions: nil).map(\.id) == ["p0", "p1"])
  }

  @Test func `the ledger allows exactly the limit of tool rounds`() throws {
    var ledger = TurnLedger(stored: Transcript(), prompt: Self.prompt("go", id: "p"), makeID: { "i" })
    try ledger.startToolRound(limit: 2)
    try ledger.startToolRound(limit: 2)
    #expect(throws: LanguageModelSession.SessionError.toolRoundLimitExceeded(limit: 2)) {
      try ledger.startToolRound(limit: 2)
    }
  }

  @Test func `a round's setup refuses two tools with one name`() {
    var resolution = ProfileResolution()
    resolution.append(WeatherTool())
    resolution.append(WeatherTool())
    #expect(throws: LanguageModelSession.SessionError.duplicateToolName("weather")) {
      try RoundSetup(resolution: resolution, instructionsID: "i")
    }
  }

  @Test func `a round's setup has no instructions entry without instructions or tools`() throws {
    var resolution = ProfileResolution()
    resolution.temperature = 0.25
    let setup = try RoundSetup(resolution: resolution, instructionsID: "i")
    #expect(setup.instructions == nil)
    #expect(setup.generationOptions(for: Self.prompt("x", id: "p"), round: 0).temperature == 0.25)
    var options = GenerationOptions()
    options.temperature = 0.75
    let prompt = Transcript.Prompt(id: "q", segments: [], options: options)
    #expect(setup.generationOptions(for: prompt, round: 1).temperature == 0.75)
  }

  @Test func `modifiers apply outside-in and each stage is recorded`() async throws {
    var resolution = ProfileResolution()
    resolution.modifiers = [
      HistoryTransform(name: "written-first") { history in
        var copy = history
        copy.append(Self.response("first", id: "a"))
        return copy
      },
      HistoryTransform(name: "written-last") { history in
        var copy = history
        copy.append(Self.response("last", id: "b"))
        return copy
      },
    ]
    let setup = try RoundSetup(resolution: resolution, instructionsID: "i")
    let context = ProfileModifierContext(turnIndex: 0, round: 0, toolDefinitions: [], requestID: "r")
    let result = try await ModifierPipeline.apply(
      setup.modifiersInApplicationOrder, to: Transcript(), in: context)
    #expect(result.stages.map(\.name) == ["written-last", "written-first"])
    #expect(result.stages.map { $0.transcript.map(\.id) } == [["b"], ["b", "a"]])
    #expect(result.history.map(\.id) == ["b", "a"])
  }

  @Test func `an image anywhere in the history is refused for a model without vision`() {
    let history = Transcript(entries: [
      .prompt(Transcript.Prompt(id: "p0", segments: [Self.image])),
      Self.response("a cat", id: "r0"),
      .prompt(Self.prompt("and now?", id: "p1")),
    ])
    let request = LanguageModelExecutorGenerationRequest(transcript: history, enabledToolDefinitions: [])
    #expect(CapabilityCheck.firstImageEntryIndex(in: history) == 0)
    #expect {
      try CapabilityCheck.check(request, against: [.toolCalling])
    } throws: { error in
      guard case LanguageModelError.unsupportedCapability(let payload) = error else { return false }
      return payload.capability == .vision
    }
    #expect(throws: Never.self) { try CapabilityCheck.check(request, against: [.vision]) }
  }

  @Test func `a session refuses a history image from an earlier turn before the model runs`() async throws {
    let script = ModelScript([.text("fine")])
    let history = Transcript(entries: [
      .prompt(Transcript.Prompt(id: "p0", segments: [Self.image])), Self.response("a cat", id: "r0"),
    ])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script, capabilities: [.toolCalling]), profile: Profile {},
      history: history)
    await #expect {
      try await session.respond(to: "What else?")
    } throws: { error in
      guard case LanguageModelError.unsupportedCapability(let payload) = error else { return false }
      return payload.capability == .vision
    }
    #expect(script.playedCount == 0)
    #expect(session.transcript.map(\.id) == ["p0", "r0"])
  }
}
