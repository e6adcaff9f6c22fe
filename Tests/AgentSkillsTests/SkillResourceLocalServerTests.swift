import AgentSkills
import ChatCompletions
import Foundation
import LocalServerSupport
import ModelSession
import TestSupport
import Testing

/// The real local model server of `scripts/local-model`, when `CONTEXTKIT_TEST_ENDPOINT` names it.
private let localEndpoint: URL? = ProcessInfo.processInfo.environment["CONTEXTKIT_TEST_ENDPOINT"]
  .flatMap { $0.isEmpty ? nil : URL(string: $0) }

@Suite(
  .serialized, .timeLimit(.minutes(20)), .holding(.standardWindow),
  .enabled(if: localEndpoint != nil, "CONTEXTKIT_TEST_ENDPOINT is not set: the local server test is skipped"))
struct SkillResourceLocalServerTests {
  @Test func `a real model, forced by a named tool choice, reads a skill's resource`() async throws {
    let fixture = try SkillFixture()
    try fixture.skill(
      "reviewing-sql", in: "skills",
      frontMatter: "name: reviewing-sql\ndescription: Reviews SQL queries. Use when asked to review a query.",
      body: "# Reviewing SQL\n\nRead references/checklist.md and apply every item.\n")
    let checklist = "- Bind every parameter; never splice user input into SQL.\n"
    try fixture.write(checklist, to: "skills/reviewing-sql/references/checklist.md")
    let library = try SkillsLibrary(root: fixture.url("skills"), mode: .strict)
    let model = FirstRoundToolChoiceModel(
      ChatCompletionsLanguageModel(
        name: "smollm2", baseURL: try #require(localEndpoint), apiKey: "sk-local-unused",
        supportsGuidedGeneration: true, timeout: 300, requestStyle: .llamaCppPython))
    let session = LanguageModelSession(
      model: model,
      profile: Profile {
        "You review SQL. Use your skills."
        Skills(activations: SkillActivations(), skills: library.skills)
      })
    let options = { (tokens: Int) in
      GenerationOptions(sampling: .greedy, maximumResponseTokens: tokens, toolCallingMode: .required)
    }
    model.choose(Skills.activateToolName)
    try await session.respond(
      to: "Review: SELECT * FROM users WHERE id = '\" + id + \"'", options: options(60))
    model.choose(Skills.readResourceToolName)
    // The path is named: which file a 135M-parameter model asks for otherwise
    // follows the prompt's every word (it asked for test.txt after the catalog's texts changed).
    try await session.respond(
      to: "Now read the skill's checklist file, references/checklist.md.", options: options(80))

    let calls = session.transcript.flatMap { entry -> [Transcript.ToolCall] in
      if case .toolCalls(let calls) = entry { Array(calls.calls) } else { [] }
    }
    let outputs = session.transcript.compactMap { entry -> Transcript.ToolOutput? in
      if case .toolOutput(let output) = entry { output } else { nil }
    }
    print("local server skill run: calls \(calls.map { "\($0.toolName) \($0.arguments.jsonString)" })")
    print("outputs: \(outputs.map { $0.segments.joinedText.prefix(200) })")
    #expect(calls.first?.toolName == Skills.activateToolName)
    let read = try #require(calls.first { $0.toolName == Skills.readResourceToolName })
    #expect(try read.arguments.value(String.self, forProperty: "skill") == "reviewing-sql")
    let answer = try #require(outputs.first { $0.id == read.id }).segments.joinedText
    // The path is the model's: a 135M-parameter model sometimes names the file
    // ("checklist.md" is resolved to the one listed file) and sometimes invents one
    // ("reference/checklist.md", "test.txt"). Either the listed file is read, or the
    // answer is the typed error that names the path and lists the real file.
    let path = try read.arguments.value(String.self, forProperty: "path")
    if answer.hasPrefix("<skill_resource") {
      #expect(answer.hasPrefix("<skill_resource skill=\"reviewing-sql\" path=\"references/checklist.md\""))
      let limit = try read.arguments.value(Int?.self, forProperty: "limit") ?? checklist.utf8.count
      #expect(answer.contains(String(checklist.prefix(min(limit, checklist.utf8.count)))))
    } else {
      #expect(
        answer
          == "Error: skill \"reviewing-sql\": no file \"\(path)\" in the skill folder. "
          + "Its resources: references/checklist.md.")
    }
    if case .response = session.transcript.last {
    } else {
      Issue.record("the turn did not end with a response")
    }
  }
}
