import ModelSession
import TestSupport
import Testing

/// A profile that writes a note while it is resolved, before any modifier runs.
private struct NotingInstructions: DynamicInstructions {
  var body: ProfileContent {
    get async throws { Instructions("Be brief.") }
  }

  func resolve(into resolution: inout ProfileResolution) async throws {
    try await body.resolve(into: &resolution)
    resolution.notes.append(
      GenerationNote(source: "profile", kind: .instructionsChanged, message: "resolved first"))
  }
}

/// A history modifier that writes a note when it runs, after the profile was resolved.
private struct NotingModifier: DynamicProfileModifier {
  var label: String
  var name: String { label }

  func transformHistory(_ history: Transcript, in context: ProfileModifierContext) async throws -> Transcript
  {
    context.record(GenerationNote(source: label, kind: .information, message: "ran"))
    return history
  }
}

@Suite("A generation record's notes", .timeLimit(.minutes(10))) struct GenerationRecordNotesOrderTests {
  @Test func `come in the order they were made: the profile's, then each modifier's, outside-in`()
    async throws
  {
    let profile = Profile { NotingInstructions() }
      .modifier(NotingModifier(label: "inner"))
      .modifier(NotingModifier(label: "outer"))
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: ModelScript([.text("Done.")])), profile: profile)
    try await session.respond(to: "Hello")
    let record = try #require(session.latestGenerationRecord)
    #expect(
      record.notes.map(\.description) == [
        "profile (instructionsChanged): resolved first", "outer (information): ran",
        "inner (information): ran",
      ])
  }
}
