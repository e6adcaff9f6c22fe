import AgentSkills
import Foundation
import ModelSession
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private let checklist = "- [ ] bind every parameter\n"  // 27 bytes

private func activate(_ name: String) -> ScriptStep {
  .toolCall(name: Skills.activateToolName, arguments: #"{"skill":"\#(name)"}"#)
}

private func read(_ skill: String, _ path: String, offset: Int? = nil) -> ScriptStep {
  let offsetPart = offset.map { #","offset":\#($0)"# } ?? ""
  return .toolCall(
    name: Skills.readResourceToolName, arguments: #"{"skill":"\#(skill)","path":"\#(path)"\#(offsetPart)}"#)
}

/// The tool definitions exactly as sent: name, description and schema bytes.
private func definitionBytes(_ request: LanguageModelExecutorGenerationRequest) -> [String] {
  request.enabledToolDefinitions.map {
    "\($0.name)\n\($0.description)\n\($0.parameters.jsonSchema.jsonString)"
  }
}

/// A skill folder `reviewing-sql` with a reference, a script and a binary asset,
/// and a file outside the folder.
private func sqlSkillFixture() throws -> SkillFixture {
  let fixture = try SkillFixture()
  try fixture.skill(
    "reviewing-sql", in: "skills",
    body: "# Reviewing SQL\n\nFollow [the checklist](references/checklist.md).\n")
  try fixture.write(checklist, to: "skills/reviewing-sql/references/checklist.md")
  try fixture.write("#!/bin/sh\necho explain\n", to: "skills/reviewing-sql/scripts/explain.sh")
  try fixture.write(Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x01]), to: "skills/reviewing-sql/assets/logo.png")
  try fixture.write("secret\n", to: "secret.txt")
  return fixture
}

private func session(
  _ fixture: SkillFixture, script: ModelScript, activations: SkillActivations, extraSkills: [Skill] = []
) throws -> LanguageModelSession {
  let library = try SkillsLibrary(root: fixture.url("skills"), mode: .strict)
  return LanguageModelSession(
    model: ScriptedLanguageModel(script: script),
    profile: Profile {
      "You review code."
      Skills(activations: activations, skills: library.skills + extraSkills)
    })
}

@Suite("Skill resources through a session", .timeLimit(.minutes(10)))
struct SkillResourceSessionTests {
  @Test func `the model activates a skill, reads its reference and answers`() async throws {
    let fixture = try sqlSkillFixture()
    let script = ModelScript([
      activate("reviewing-sql"), read("reviewing-sql", "references/checklist.md"), .text("Bind the id."),
    ])
    let session = try session(fixture, script: script, activations: SkillActivations())
    let response = try await session.respond(to: "Review: SELECT * FROM t WHERE id = '\\(id)'")
    #expect(response.content == "Bind the id.")
    let outputs = toolOutputTexts(session.transcript)
    #expect(outputs.count == 2)
    #expect(
      outputs[0] == """
        <skill_content name="reviewing-sql">
        # Reviewing SQL

        Follow [the checklist](references/checklist.md).

        </skill_content>
        <skill_resources name="reviewing-sql">
        Files in this skill's folder. Read one with read_skill_resource (skill "reviewing-sql", path as listed) \
        when the instructions call for it. Scripts are shown as text and never run.
        - assets/logo.png (binary, 6 bytes; cannot be read)
        - references/checklist.md (text, 27 bytes)
        - scripts/explain.sh (text, 23 bytes; a script: read it, it is never run)
        </skill_resources>
        """)
    #expect(
      outputs[1] == """
        <skill_resource skill="reviewing-sql" path="references/checklist.md" bytes="0-27 of 27">
        - [ ] bind every parameter
        </skill_resource>
        """)
    // Both tools were offered from the start, and their definitions never changed.
    let definitions = script.requests.map(definitionBytes)
    #expect(definitions.count == 3)
    #expect(definitions[0].count == 2)
    #expect(Set(definitions).count == 1)
  }

  @Test func `an instructions skill from disk lists its files when activated, and the model reads them`()
    async throws
  {
    let fixture = try SkillFixture()
    try fixture.skill(
      "house-tone", in: "skills",
      frontMatter: "name: house-tone\ndescription: Tone.\nmetadata:\n  activation: instructions",
      body: "Be brief.\n")
    try fixture.write("Short words.\n", to: "skills/house-tone/references/words.md")  // 13 bytes
    let activations = SkillActivations()
    let script = ModelScript([activate("house-tone"), read("house-tone", "references/words.md"), .text("ok")])
    let session = try session(fixture, script: script, activations: activations)
    try await session.respond(to: "Write")
    #expect(activations.activeSkillNames == ["house-tone"])
    #expect(
      toolOutputTexts(session.transcript) == [
        """
        Successfully activated skill: house-tone
        <skill_resources name="house-tone">
        Files in this skill's folder. Read one with read_skill_resource (skill "house-tone", path as listed) \
        when the instructions call for it. Scripts are shown as text and never run.
        - references/words.md (text, 13 bytes)
        </skill_resources>
        """,
        """
        <skill_resource skill="house-tone" path="references/words.md" bytes="0-13 of 13">
        Short words.
        </skill_resource>
        """,
      ])
  }

  @Test func `tool definitions are byte-identical before and after activations of both flavours`()
    async throws
  {
    let fixture = try sqlSkillFixture()
    let activations = SkillActivations()
    let script = ModelScript([
      activate("reviewing-sql"), .text("one"), activate("house-tone"), .text("two"),
      read("reviewing-sql", "scripts/explain.sh"), .text("three"),
    ])
    let tone = Skill(name: "house-tone", description: "Tone", instructions: "Be brief.")
    let session = try session(fixture, script: script, activations: activations, extraSkills: [tone])
    for prompt in ["a", "b", "c"] { try await session.respond(to: Prompt(prompt)) }
    #expect(activations.isActive("house-tone"))
    let definitions = script.requests.map(definitionBytes)
    #expect(definitions.count == 6)
    #expect(Set(definitions).count == 1)
    #expect(toolOutputTexts(session.transcript).last?.contains("echo explain") == true)
  }

  @Test func `a skill without resources anywhere means no read tool`() async throws {
    let script = ModelScript([.text("ok")])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile {
        Skills(activations: SkillActivations()) {
          Skill(name: "style", description: "Style", prompt: "Use guard.")
        }
      })
    try await session.respond(to: "hi")
    #expect(script.requests[0].enabledToolDefinitions.map(\.name) == [Skills.activateToolName])
  }

  @Test func `every refusal is a tool output the model sees, and the session goes on`() async throws {
    let fixture = try sqlSkillFixture()
    try fixture.write("listed, then swapped\n", to: "skills/reviewing-sql/references/swapped.md")
    try fixture.write("listed, then a FIFO\n", to: "skills/reviewing-sql/references/pipe.md")
    let script = ModelScript([
      read("reviewing-sql", "references/checklist.md"),  // before activation
      activate("reviewing-sql"),
      read("reviewing-sql", "../../secret.txt"),
      read("reviewing-sql", "references/nothing.md"),
      read("reviewing-sql", "assets/logo.png"),
      read("reviewing-sql", "references/swapped.md"),
      read("reviewing-sql", "references/pipe.md"),
      read("reviewing-sql", "references/checklist.md"),
      .text("Done."),
    ])
    let session = try session(fixture, script: script, activations: SkillActivations())
    // After loading, one listed file becomes a link out and another a FIFO.
    let folder = fixture.url("skills/reviewing-sql/references")
    try FileManager.default.removeItem(at: folder.appendingPathComponent("swapped.md"))
    try fixture.link("skills/reviewing-sql/references/swapped.md", to: fixture.url("secret.txt").path)
    try FileManager.default.removeItem(at: folder.appendingPathComponent("pipe.md"))
    #expect(mkfifo(folder.appendingPathComponent("pipe.md").path, 0o644) == 0)

    // Reading a FIFO that blocked would hold a thread forever: the turn runs in
    // a task of its own, so that the test fails with a message instead of hanging.
    let finished = TestSignal()
    let turn = Task {
      defer { finished.fire() }
      return try await session.respond(to: "Review this query.").content
    }
    try await finished.wait(upTo: .seconds(120))
    #expect(try await turn.value == "Done.")
    let outputs = toolOutputTexts(session.transcript)
    #expect(outputs.count == 8)
    #expect(outputs[0].hasPrefix("Error: the skill \"reviewing-sql\" is not activated."))
    #expect(outputs[2].hasPrefix("Error: skill \"reviewing-sql\": no file \"../../secret.txt\""))
    #expect(
      outputs[3]
        == "Error: skill \"reviewing-sql\": no file \"references/nothing.md\" in the skill folder. Its resources: "
        + "assets/logo.png, references/checklist.md, references/pipe.md, references/swapped.md, "
        + "scripts/explain.sh.")
    #expect(
      outputs[4]
        == "Error: skill \"reviewing-sql\": \"assets/logo.png\" is a binary file (6 bytes); "
        + "only text resources can be read.")
    #expect(
      outputs[5]
        == "Error: skill \"reviewing-sql\": \"references/swapped.md\" leads outside the skill folder; "
        + "only the skill's own files can be read.")
    #expect(
      outputs[6] == "Error: skill \"reviewing-sql\": \"references/pipe.md\" is not a regular file.")
    #expect(outputs[7].contains(checklist))
    #expect(!outputs.contains { $0.contains("secret\n") })
  }

  @Test func `a path that names one listed file by its end reads that file`() async throws {
    let fixture = try sqlSkillFixture()
    try fixture.write("other\n", to: "skills/reviewing-sql/assets/notes.txt")
    try fixture.write("more\n", to: "skills/reviewing-sql/references/notes.txt")
    let script = ModelScript([
      activate("reviewing-sql"), read("reviewing-sql", "checklist.md"), read("reviewing-sql", "notes.txt"),
      .text("ok"),
    ])
    let session = try session(fixture, script: script, activations: SkillActivations())
    try await session.respond(to: "Check it.")
    let outputs = toolOutputTexts(session.transcript)
    #expect(outputs[1].hasPrefix("<skill_resource skill=\"reviewing-sql\" path=\"references/checklist.md\""))
    // Two files end in notes.txt: no guess, the error lists them.
    #expect(outputs[2].hasPrefix("Error: skill \"reviewing-sql\": no file \"notes.txt\""))
    #expect(outputs[2].contains("assets/notes.txt") && outputs[2].contains("references/notes.txt"))
  }

  @Test func `hidden files and folders are not resources: not listed, and the model cannot read them`()
    async throws
  {
    let fixture = try sqlSkillFixture()
    try fixture.write("API_KEY=hunter2\n", to: "skills/reviewing-sql/.env")
    try fixture.write("[core]\n", to: "skills/reviewing-sql/.git/config")
    try fixture.write("draft\n", to: "skills/reviewing-sql/references/.draft.md")
    let script = ModelScript([
      activate("reviewing-sql"), read("reviewing-sql", ".env"), read("reviewing-sql", ".git/config"),
      .text("ok"),
    ])
    let session = try session(fixture, script: script, activations: SkillActivations())
    try await session.respond(to: "Check it.")
    let outputs = toolOutputTexts(session.transcript)
    #expect(outputs.count == 3)
    let listed = "Its resources: assets/logo.png, references/checklist.md, scripts/explain.sh."
    #expect(
      outputs[1] == "Error: skill \"reviewing-sql\": no file \".env\" in the skill folder. " + listed)
    #expect(
      outputs[2] == "Error: skill \"reviewing-sql\": no file \".git/config\" in the skill folder. " + listed)
    #expect(!outputs[0].contains(".env") && !outputs[0].contains(".git") && !outputs[0].contains(".draft"))
  }

  @Test func `a shortened path matches a listed file's end only at a folder boundary`() async throws {
    let fixture = try sqlSkillFixture()
    // "list.md" is the end of "references/checklist.md", but not a whole file name there.
    let script = ModelScript([activate("reviewing-sql"), read("reviewing-sql", "list.md"), .text("ok")])
    let session = try session(fixture, script: script, activations: SkillActivations())
    try await session.respond(to: "Check it.")
    let outputs = toolOutputTexts(session.transcript)
    #expect(outputs.count == 2)
    #expect(outputs.last?.hasPrefix("Error: skill \"reviewing-sql\": no file \"list.md\"") == true)
  }

  @Test func `a long resource is read in windows that say what remains`() async throws {
    let fixture = try sqlSkillFixture()
    // 40,000 bytes: 20,000 two-byte characters, so a 32 KiB window ends on a character.
    try fixture.write(String(repeating: "é", count: 20_000), to: "skills/reviewing-sql/references/long.md")
    let script = ModelScript([
      activate("reviewing-sql"), read("reviewing-sql", "references/long.md"),
      read("reviewing-sql", "references/long.md", offset: 32_768), .text("ok"),
    ])
    let session = try session(fixture, script: script, activations: SkillActivations())
    try await session.respond(to: "Read it all.")
    let outputs = toolOutputTexts(session.transcript)
    let first = try #require(outputs.dropFirst().first)
    #expect(
      first.hasPrefix(
        "<skill_resource skill=\"reviewing-sql\" path=\"references/long.md\" bytes=\"0-32768 of 40000\">\n"))
    #expect(
      first.hasSuffix(
        "</skill_resource>\n7,232 more bytes: call read_skill_resource again with offset 32768 to continue."))
    #expect(first.filter { $0 == "é" }.count == 16_384)
    let second = try #require(outputs.last)
    #expect(
      second.hasPrefix(
        "<skill_resource skill=\"reviewing-sql\" path=\"references/long.md\" bytes=\"32768-40000 of 40000\">\n"
      ))
    #expect(second.filter { $0 == "é" }.count == 3_616)
    #expect(second.hasSuffix("</skill_resource>"))
  }
}
