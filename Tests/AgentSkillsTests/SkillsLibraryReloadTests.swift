import AgentSkills
import Foundation
import ModelSession
import Synchronization
import TestSupport
import Testing

/// An app's profile that builds its catalog from the library as it is now,
/// so a reload between turns reaches the next generation.
private struct ShelfProfile: DynamicProfile {
  let shelf: Shelf
  let activations: SkillActivations

  var body: some DynamicProfile {
    Profile { Skills(activations: activations, skills: shelf.library.withLock { $0.skills }) }
  }
}

private final class Shelf: Sendable {
  let library: Mutex<SkillsLibrary>
  init(_ library: SkillsLibrary) { self.library = Mutex(library) }
}

/// Reloading a library says what changed on disk, and a catalog built from
/// it follows at the next generation, with a note for the cache cost.
@Suite("Skills library reload", .timeLimit(.minutes(10)))
struct SkillsLibraryReloadTests {
  @Test func `reload reports the skills added, removed and edited, and nothing when nothing changed`() throws
  {
    let fixture = try SkillFixture()
    try fixture.skill("alpha")
    try fixture.skill("beta")
    try fixture.skill("gamma")
    var library = try SkillsLibrary(root: fixture.root)
    #expect(try library.reload() == SkillsLibraryChanges())
    #expect(try library.reload().isEmpty)

    try FileManager.default.removeItem(at: fixture.url("beta"))
    try fixture.skill("delta")
    try fixture.skill("gamma", body: "# Use\n\nDo the thing, now twice.\n")
    try fixture.write("# New\n", to: "alpha/references/new.md")
    let changes = try library.reload()
    #expect(changes == SkillsLibraryChanges(added: ["delta"], removed: ["beta"], edited: ["alpha", "gamma"]))
    #expect(changes.description == "added delta; removed beta; edited alpha, gamma")
    #expect(library.names == ["alpha", "delta", "gamma"])
    #expect(library.skill(named: "alpha")?.resources.map(\.path) == ["references/new.md"])
    #expect(SkillsLibraryChanges().description == "no changes")
  }

  @Test func `a skill that becomes invalid is removed, and strict mode leaves the library as it was`() throws
  {
    let fixture = try SkillFixture()
    try fixture.skill("alpha")
    try fixture.skill("beta")
    var lenient = try SkillsLibrary(root: fixture.root)
    var strict = try SkillsLibrary(root: fixture.root, mode: .strict)
    try fixture.skill("beta", frontMatter: "name: beta")
    #expect(try lenient.reload() == SkillsLibraryChanges(removed: ["beta"]))
    #expect(lenient.diagnostics.contains { $0.isError && $0.path.hasSuffix("beta/SKILL.md") })
    #expect(throws: SkillLoadingError.self) { try strict.reload() }
    #expect(strict.names == ["alpha", "beta"])
  }

  @Test func `the catalog and the activation tool follow a reload between turns, with notes for the change`()
    async throws
  {
    let fixture = try SkillFixture()
    try fixture.skill("alpha")
    try fixture.skill("beta")
    let shelf = Shelf(try SkillsLibrary(root: fixture.root))
    let activate = Skills.activateToolName
    let script = ModelScript([
      .text("First."),
      .toolCall(name: activate, arguments: #"{"skill":"delta"}"#), .text("Second."),
      .text("Third."),
    ])
    let model = ScriptedLanguageModel(script: script)
    let session = LanguageModelSession(
      model: model, profile: ShelfProfile(shelf: shelf, activations: SkillActivations()))
    let stream = session.generationRecords
    try await session.respond(to: "One")

    try FileManager.default.removeItem(at: fixture.url("beta"))
    try fixture.skill("delta")
    try fixture.skill("alpha", frontMatter: "name: alpha\ndescription: Does alpha things, better.")
    let changes = try shelf.library.withLock { try $0.reload() }
    #expect(changes == SkillsLibraryChanges(added: ["delta"], removed: ["beta"], edited: ["alpha"]))
    try await session.respond(to: "Two")
    try await session.respond(to: "Three")

    let records = await firstRecords(stream, count: 4)
    let skillNotes = records.map { record in
      record.notes.filter { $0.source == "skills" }.map { [$0.kind.rawValue: $0.names] }
    }
    let noted: [GenerationNote.Field: [String]] = [
      .added: ["delta"], .removed: ["beta"], .edited: ["alpha"],
    ]
    #expect(skillNotes == [[], [["instructionsChanged": noted], ["toolsChanged": noted]], [], []])
    let requests = script.requests
    #expect(requests.count == 4)
    func schema(_ index: Int) -> String? {
      requests[index].enabledToolDefinitions.first { $0.name == activate }?.parameters.jsonSchema.jsonString
    }
    let enumBefore = schema(0)
    let enumAfter = schema(1)
    #expect(enumBefore?.contains(#""beta""#) == true)
    #expect(enumAfter?.contains(#""delta""#) == true)
    #expect(enumAfter?.contains(#""beta""#) == false)
    let outputs = session.transcript.compactMap { entry -> String? in
      if case .toolOutput(let output) = entry { output.segments.joinedText } else { nil }
    }
    #expect(outputs == ["# Use\n\nDo the thing.\n"])
  }
}
