import AgentSkills
import ChatCompletions
import Foundation
import ModelSession
import Synchronization
import Testing

/// The real local model server of `scripts/local-model`, when `CONTEXTKIT_TEST_ENDPOINT` names it.
private let localEndpoint: URL? = ProcessInfo.processInfo.environment["CONTEXTKIT_TEST_ENDPOINT"]
  .flatMap { $0.isEmpty ? nil : URL(string: $0) }

/// A chat completions model whose first round of each turn offers only one
/// chosen tool, so that `.required` becomes a named tool choice (which
/// llama-cpp-python enforces with a grammar). Later rounds see every tool.
private struct OneToolFirstModel: LanguageModel {
  final class Choice: Sendable {
    let toolName = Mutex<String?>(nil)
  }

  struct Executor: LanguageModelExecutor {
    typealias Model = OneToolFirstModel
    let inner: ChatCompletionsExecutor

    init(configuration: ChatCompletionsExecutor.Configuration) {
      inner = ChatCompletionsExecutor(configuration: configuration)
    }

    func respond(
      to request: LanguageModelExecutorGenerationRequest, model: OneToolFirstModel,
      streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
      var request = request
      let isFirstRound: Bool = if case .toolOutput = request.transcript.last { false } else { true }
      if isFirstRound, let name = model.choice.toolName.withLock({ $0 }) {
        request.enabledToolDefinitions = request.enabledToolDefinitions.filter { $0.name == name }
      }
      try await inner.respond(to: request, model: model.inner, streamingInto: channel)
    }
  }

  let inner: ChatCompletionsLanguageModel
  let choice = Choice()
  var capabilities: LanguageModelCapabilities { inner.capabilities }
  var executorConfiguration: ChatCompletionsExecutor.Configuration { inner.executorConfiguration }
}

@Suite(
  .serialized, .timeLimit(.minutes(20)),
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
    let model = OneToolFirstModel(
      inner: ChatCompletionsLanguageModel(
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
    model.choice.toolName.withLock { $0 = Skills.activateToolName }
    try await session.respond(
      to: "Review: SELECT * FROM users WHERE id = '\" + id + \"'", options: options(60))
    model.choice.toolName.withLock { $0 = Skills.readResourceToolName }
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
