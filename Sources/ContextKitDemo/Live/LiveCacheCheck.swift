import AgentSkills
import CacheAnalysis
import ChatCompletions
import Foundation
import HistoryCompression
import ModelSession

/// ContextKit's predicted prefix reuse checked against a live server's own
/// figures, generation by generation: a conversation with the skills catalog
/// (an instructions skill switched on and off by the app) under
/// `compactingHistory`, token counts from the server's tokenizer
/// (``ServerTokenCounter``), and the server's reuse from its responses or,
/// for llama-cpp-python, which reports none, from its log
/// (``LlamaCppPythonLog``).
///
/// ```swift
/// let check = LiveCacheCheck(model: model, skills: library.skills, serverLog: logURL)
/// let result = try await check.run(prompts: prompts)
/// print(result.table)
/// ```
package struct LiveCacheCheck: Sendable {
  /// The live model.
  package var model: ChatCompletionsLanguageModel
  /// The instructions the conversation starts with.
  package var instructions: String
  /// The skills offered; instructions skills among them are switched by ``skillSwitches``.
  package var skills: [Skill]
  /// Turn index → the instructions skill to switch on (`true`) or off before that turn.
  package var skillSwitches: [Int: (name: String, on: Bool)]
  /// The `compactingHistory` budget in tokens.
  package var budget: Int
  /// The longest answer.
  package var maximumResponseTokens: Int
  /// llama-cpp-python's log, when the server reports its reuse only there.
  package var serverLog: URL?
  /// Tokens the server's chat template adds around each message (SmolLM2's
  /// `<|im_start|>role\n … <|im_end|>\n` is 5).
  package var templateTokensPerMessage: Int
  /// Whether the server's chat template writes the tool definitions into the
  /// prompt (llama-cpp-python's template for SmolLM2 does not).
  package var templateRendersTools: Bool

  package init(
    model: ChatCompletionsLanguageModel, instructions: String, skills: [Skill],
    skillSwitches: [Int: (name: String, on: Bool)], budget: Int, maximumResponseTokens: Int, serverLog: URL?,
    templateTokensPerMessage: Int = 5, templateRendersTools: Bool = false
  ) {
    self.model = model
    self.instructions = instructions
    self.skills = skills
    self.skillSwitches = skillSwitches
    self.budget = budget
    self.maximumResponseTokens = maximumResponseTokens
    self.serverLog = serverLog
    self.templateTokensPerMessage = templateTokensPerMessage
    self.templateRendersTools = templateRendersTools
  }

  /// What the check measured.
  package struct Result: Sendable {
    /// The reports, with the server's figures where it gave them.
    package var reports: [CacheImpactReport]
    /// Generations during which requests of other clients ran on the server
    /// (their indexes): the server's cache held their prompts, not ours.
    package var interleavedGenerations: Set<Int>

    /// The totals.
    package var summary: CacheImpactSummary { CacheImpactSummary(reports: reports) }
  }

  /// The server answered with something the check cannot use.
  package struct CheckError: Error, CustomStringConvertible {
    package var description: String
  }

  /// Plays `prompts` and compares every generation's predicted reuse with the server's.
  package func run(prompts: [String]) async throws -> Result {
    let counter = ServerTokenCounter(
      model: model, fallback: EstimatingTokenCounter(framingTokenCount: templateTokensPerMessage))
    let activations = SkillActivations()
    let catalog = Skills(activations: activations, skills: skills)
    let profile = Profile {
      Instructions(instructions)
      catalog
    }
    .compactingHistory(budget: budget, tokenCounter: counter)
    let session = LanguageModelSession(model: model, profile: profile)
    var records: [GenerationRecord] = []
    var interleaved: Set<Int> = []
    var iterator = session.generationRecords.makeAsyncIterator()
    let log = serverLog.map(LlamaCppPythonLog.init(url:))
    let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: maximumResponseTokens)
    for (turn, prompt) in prompts.enumerated() {
      if let change = skillSwitches[turn] {
        _ = change.on ? await activations.activate(change.name) : await activations.deactivate(change.name)
      }
      let offset = try log?.size()
      _ = try await session.respond(to: prompt, options: options)
      // The turn's records, up to the latest one (one per generation of its tool loop).
      let latest = session.latestGenerationRecord?.requestID
      var turnRecords: [GenerationRecord] = []
      while latest != nil, turnRecords.last?.requestID != latest, let record = await iterator.next() {
        turnRecords.append(record)
      }
      if let log, let offset {
        let served = try await Self.requests(in: log, since: offset, atLeast: turnRecords.count)
        if served.count > turnRecords.count {
          interleaved.formUnion(records.count..<(records.count + turnRecords.count))
        }
        for (index, request) in zip(turnRecords.indices, served.suffix(turnRecords.count)) {
          turnRecords[index].usage.input = .init(
            totalTokenCount: request.promptTokenCount, cachedTokenCount: request.cachedTokenCount)
        }
      }
      records += turnRecords
    }
    var cacheModel = try PromptCacheModel(blockSize: 1, tokenCounter: counter)
    cacheModel.serverTolerance = templateTokensPerMessage
    cacheModel.toolsInPrompt = templateRendersTools
    let reports = try await CacheImpactAnalyzer.reports(for: records, model: cacheModel)
    return Result(reports: reports, interleavedGenerations: interleaved)
  }

  /// The complete requests logged since `offset`, waiting (at most five
  /// seconds) for the last one's closing lines.
  private static func requests(
    in log: LlamaCppPythonLog, since offset: UInt64, atLeast count: Int
  ) async throws -> [LlamaCppPythonLog.Request] {
    let deadline = ContinuousClock.now + .seconds(5)
    while true {
      let requests = try log.requests(since: offset)
      if requests.count >= count { return requests }
      guard ContinuousClock.now < deadline else {
        throw CheckError(
          description: "\(log.url.path) shows \(requests.count) finished requests, expected \(count): "
            + "is it the log of the server at this endpoint, with verbose output?")
      }
      try await Task.sleep(for: .milliseconds(50))
    }
  }
}
