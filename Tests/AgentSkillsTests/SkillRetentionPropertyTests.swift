import AgentSkills
import Foundation
import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// One seeded conversation with skills of both flavours: what the scripted
/// model does (activate skills, fetch long reports, answer), the prompts, and
/// the budget the history modifier under test gets.
struct SkillConversation {
  /// The prompt skills: name and body length in words (each word is five
  /// bytes, so about 1.25 estimated tokens). One body is over the per-skill cap.
  static let promptSkills: [(name: String, words: Int)] = [
    ("swift-style", 40), ("sql-review", 90), ("release-notes", 160), ("api-design", 230),
  ]
  /// The instructions skills.
  static let instructionsSkills = ["formal-tone", "brief-answers"]
  /// The per-skill cap on a re-attached body (the 230-word body is over it).
  static let itemTokenLimit = 250

  let prompts: [String]
  let steps: [ScriptStep]
  /// The skills the model activates, in order (a skill may come more than once).
  let activatedSkills: [String]
  /// The budget (tokens) or size of the modifier under test.
  let budget: Int
  /// For `rollingWindow`: a window in entries instead of tokens.
  let windowInEntries: Int?

  init(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    var prompts: [String] = []
    var steps: [ScriptStep] = []
    var activatedSkills: [String] = []
    let skillNames = Self.promptSkills.map(\.name) + Self.instructionsSkills
    for turn in 0..<random.int(in: 4...10) {
      prompts.append(Self.words(random.int(in: 3...30), tag: "p\(turn)-"))
      for _ in 0..<random.int(in: 0...3) {
        if random.chance(0.55) {
          let name = random.pick(skillNames)
          steps.append(.toolCall(name: Skills.activateToolName, arguments: #"{"skill":"\#(name)"}"#))
          activatedSkills.append(name)
        } else {
          let words = random.int(in: 40...240)
          steps.append(.toolCall(name: FillerReportTool.toolName, arguments: #"{"words":\#(words)}"#))
        }
      }
      steps.append(.text(Self.words(random.int(in: 5...120), tag: "a\(turn)-"), pieceLength: 400))
    }
    self.prompts = prompts
    self.steps = steps
    self.activatedSkills = activatedSkills
    // The largest turn (a prompt, three rounds of a call and up to 300 tokens
    // of output, an answer) and the instructions stay under 1,450 tokens.
    budget = random.int(in: 1_500...3_000)
    windowInEntries = random.chance(0.3) ? random.int(in: 9...30) : nil
  }

  /// `count` words of five bytes, tagged so that no two texts are alike.
  static func words(_ count: Int, tag: String) -> String {
    ([tag] + Array(repeating: "word", count: max(0, count - 1))).joined(separator: " ")
  }
}

/// A tool whose output is as long as the model asks: it fills the history.
struct FillerReportTool: Tool {
  static let toolName = "fetch_report"
  let name = Self.toolName
  let description = "Fetches a report of the given length."
  var parameters: GenerationSchema { Self.parameters }
  /// Built once: the session reads a tool's schema at every generation.
  private static let parameters =
    (try? GenerationSchema(
      root: DynamicGenerationSchema(
        name: "ReportArguments",
        properties: [
          DynamicGenerationSchema.Property(
            name: "words", description: "How long", schema: DynamicGenerationSchema(type: Int.self))
        ]),
      dependencies: [])) ?? String.generationSchema

  func call(arguments: GeneratedContent) async throws -> String {
    SkillConversation.words(try arguments.value(Int.self, forProperty: "words"), tag: "data")
  }
}

/// The history modifiers under test, each applied to the same conversations.
enum RetentionModifier: String, CaseIterable, CustomTestStringConvertible {
  case rollingWindow, summarizeHistory, compactingHistory, droppingCompletedToolCalls
  /// `compactingHistory`, then `droppingCompletedToolCalls` on what it keeps.
  case pipeline

  var testDescription: String { rawValue }

  /// The stage whose budget the conversation checks, and that budget in its unit.
  func budget(of conversation: SkillConversation) -> HistorySize? {
    switch self {
    case .droppingCompletedToolCalls: nil
    case .rollingWindow: conversation.windowInEntries.map { .entries($0) } ?? .tokens(conversation.budget)
    case .summarizeHistory, .compactingHistory, .pipeline: .tokens(conversation.budget)
    }
  }

  func apply(to profile: some DynamicProfile, conversation: SkillConversation) -> any DynamicProfile {
    switch self {
    case .rollingWindow:
      return profile.rollingWindow(budget(of: conversation) ?? .tokens(conversation.budget))
    case .summarizeHistory:
      let summarizer = ModelScript(
        Array(
          repeating: .text("Earlier, the user asked for reviews and reports.", pieceLength: 100), count: 64))
      return profile.summarizeHistory(
        tokenThreshold: conversation.budget, model: ScriptedLanguageModel(script: summarizer))
    case .compactingHistory:
      return profile.compactingHistory(tokenBudget: conversation.budget)
    case .droppingCompletedToolCalls:
      return profile.droppingCompletedToolCalls()
    case .pipeline:
      // Written last runs first: compactingHistory, then droppingCompletedToolCalls.
      return profile.droppingCompletedToolCalls().compactingHistory(tokenBudget: conversation.budget)
    }
  }
}

/// Runs one conversation through a real session and returns what is wrong.
func retentionProblems(seed: UInt64, modifier: RetentionModifier) async throws -> [String] {
  let conversation = SkillConversation(seed: seed)
  let activations = SkillActivations()
  var skills = Skills(
    activations: activations,
    skills: SkillConversation.promptSkills.map { skill in
      Skill(
        name: skill.name, description: "Rules for \(skill.name)",
        prompt: SkillConversation.words(skill.words, tag: skill.name))
    }
      + SkillConversation.instructionsSkills.map { name in
        Skill(name: name, description: "Style: \(name)", instructions: "Answer in the \(name) style.")
      })
  skills.retention = ContextRetention(itemTokenLimit: SkillConversation.itemTokenLimit)
  let profile = Profile {
    "You review code and write reports."
    skills
    FillerReportTool()
  }
  let script = ModelScript(conversation.steps)
  let session = LanguageModelSession(
    model: ScriptedLanguageModel(script: script),
    profile: modifier.apply(to: profile, conversation: conversation))
  let records = session.generationRecords
  for prompt in conversation.prompts { try await session.respond(to: prompt) }
  let counter = EstimatingTokenCounter()
  var problems: [String] = []
  // Skills missing from the context since a note named them (until they are visible again).
  var explained: Set<String> = []
  var generation = 0
  for await record in records {
    let sent = record.sentTranscript.entries
    let delivered = Set(record.storedHistory.compactMap(promptSkillDelivered))
    let visibleKeys = sent.compactMap(\.retainedContextKey)
    let visible = Set(visibleKeys.compactMap(skillName(fromKey:)))
    for name in visible where visibleKeys.filter({ $0 == "skill:" + name }).count > 1 {
      problems.append("generation \(generation): the body of \(name) is in the context twice")
    }
    let named = record.notes.filter { $0.kind == .contextLeftOut }.flatMap { $0.names(.keys) }
    for name in delivered.sorted() {
      if visible.contains(name) {
        explained.remove(name)
      } else if named.contains("skill:" + name) {
        explained.insert(name)
      } else if !explained.contains(name) {
        problems.append(
          "generation \(generation): \(name) was delivered, is not in what the model sees, and no note says why"
        )
      }
    }
    if let size = modifier.budget(of: conversation) {
      problems += budgetProblems(size, sent: sent, counter: counter, generation: generation)
    }
    generation += 1
    if generation == script.playedCount { break }
  }
  if generation != conversation.steps.count {
    problems.append("\(generation) generations recorded for \(conversation.steps.count) script steps")
  }
  return problems
}

/// The skill whose body a stored tool output delivered (a copy put back after a cut is not a delivery).
private func promptSkillDelivered(_ entry: Transcript.Entry) -> String? {
  guard case .toolOutput(let output) = entry, !output.isReattachedContext, let key = output.retainedContextKey
  else { return nil }
  return skillName(fromKey: key)
}

private func skillName(fromKey key: String) -> String? {
  key.hasPrefix("skill:") ? String(key.dropFirst("skill:".count)) : nil
}

/// The budget holds for what the model sees, re-attached bodies counted,
/// unless the instructions and the current turn alone are over it.
private func budgetProblems(
  _ size: HistorySize, sent: [Transcript.Entry], counter: EstimatingTokenCounter, generation: Int
) -> [String] {
  func measure(_ entries: [Transcript.Entry]) -> Int {
    switch size {
    case .entries: entries.count
    case .tokens: counter.tokenCounts(of: entries).reduce(0, +)
    }
  }
  let actual = measure(sent)
  guard actual > size.value else { return [] }
  let turnStart = sent.lastIndex { $0.kindName == "prompt" } ?? sent.count
  let minimum = measure(Array(sent.prefix(1)) + Array(sent[turnStart...]))
  guard minimum <= size.value else { return [] }
  return [
    "generation \(generation): the model sees \(actual), over the budget of \(size), though the current turn fits (\(minimum))"
  ]
}

@Suite(.timeLimit(.minutes(20))) struct SkillRetentionPropertyTests {
  /// Serialized: the cases run one at a time, so each has the process to itself for
  /// its time limit instead of sharing the cores with the others.
  @Suite("Skill retention properties", .serialized) struct Properties {
    /// 200 conversations per modifier in the test command;
    /// `SKILL_RETENTION_CONVERSATIONS=N` runs N.
    static func conversationCount() throws -> Int {
      try PropertyCaseCount(default: 200, variable: "SKILL_RETENTION_CONVERSATIONS").value
    }
    /// Each modifier's conversations run in this many test cases, so that each case
    /// stays well inside its time limit on a busy machine.
    static let shardCount = 10

    @Test(arguments: RetentionModifier.allCases, 0..<shardCount)
    func `every prompt skill in use is visible or named in a note, and the budget holds`(
      modifier: RetentionModifier, shard: Int
    ) async throws {
      var seeds = stride(from: shard, to: try Self.conversationCount(), by: Self.shardCount).map {
        UInt64($0)
      }
      let environment = ProcessInfo.processInfo.environment
      if let only = environment["SKILL_RETENTION_SEED"].flatMap(UInt64.init) {
        seeds = only % UInt64(Self.shardCount) == UInt64(shard) ? [only] : []
      }
      if let only = environment["SKILL_RETENTION_MODIFIER"], only != modifier.rawValue { seeds = [] }
      for seed in seeds {
        // CPU work with no real suspension: give the other suites' tasks a turn between seeds.
        await Task.yield()
        let problems = try await retentionProblems(seed: seed, modifier: modifier)
        guard problems.isEmpty else {
          Issue.record(
            """
            seed \(seed) under \(modifier.rawValue) (rerun with SKILL_RETENTION_SEED=\(seed)):
            \(problems.prefix(5).joined(separator: "\n"))
            """)
          return
        }
      }
    }
  }

  @Suite("Skill conversation coverage") struct Coverage {
    @Test func `the conversations activate skills of both flavours, and one skill more than once`() throws {
      var promptFlavour = 0
      var instructionsFlavour = 0
      var bothFlavours = 0
      var repeated = 0
      let conversationCount = try Properties.conversationCount()
      for seed in 0..<UInt64(conversationCount) {
        let activated = SkillConversation(seed: seed).activatedSkills
        let prompt = activated.contains { name in SkillConversation.promptSkills.contains { $0.name == name }
        }
        let instructions = activated.contains { SkillConversation.instructionsSkills.contains($0) }
        if prompt { promptFlavour += 1 }
        if instructions { instructionsFlavour += 1 }
        if prompt && instructions { bothFlavours += 1 }
        if Set(activated).count < activated.count { repeated += 1 }
      }
      // Each shape in at least a tenth of the conversations.
      let minimum = conversationCount / 10
      #expect(promptFlavour >= minimum, "\(promptFlavour)")
      #expect(instructionsFlavour >= minimum, "\(instructionsFlavour)")
      #expect(bothFlavours >= minimum, "\(bothFlavours)")
      #expect(repeated >= minimum, "\(repeated)")
    }
  }
}
