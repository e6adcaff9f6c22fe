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
  /// Whether the server's chat template is ChatML (SmolLM2's): then the
  /// counter takes each role's framing and the generation prompt from the
  /// server's tokenizer (``ChatMLTokenCounter``) instead of
  /// ``templateTokensPerMessage`` for every entry.
  package var templateIsChatML: Bool

  package init(
    model: ChatCompletionsLanguageModel, instructions: String, skills: [Skill],
    skillSwitches: [Int: (name: String, on: Bool)], budget: Int, maximumResponseTokens: Int, serverLog: URL?,
    templateTokensPerMessage: Int = 5, templateRendersTools: Bool = false, templateIsChatML: Bool = true
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
    self.templateIsChatML = templateIsChatML
  }

  /// What the check measured.
  package struct Result: Sendable {
    /// The reports, with the server's figures where it gave them.
    package var reports: [CacheImpactReport]
    /// Generations during which, or just before which, requests of other
    /// clients ran on the server (their indexes): the server's cache held
    /// their prompts, not ours, and the log does not say which figures were
    /// ours, so these generations have none. The first generation is one of
    /// them when the server reused a prefix an earlier client left.
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
    let serverCounter = ServerTokenCounter(
      model: model, fallback: EstimatingTokenCounter(framingTokenCount: templateTokensPerMessage))
    let counter: any TokenCounter =
      templateIsChatML ? try await ChatMLTokenCounter(server: serverCounter) : serverCounter
    let activations = SkillActivations()
    let catalog = Skills(activations: activations, skills: skills)
    let profile = Profile {
      Instructions(instructions)
      catalog
    }
    .compactingHistory(tokenBudget: budget, tokenCounter: counter)
    let session = LanguageModelSession(model: model, profile: profile)
    var records: [GenerationRecord] = []
    var iterator = session.generationRecords.makeAsyncIterator()
    var logReading = try serverLog.map { try LogReading(log: LlamaCppPythonLog(url: $0)) }
    let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: maximumResponseTokens)
    for (turn, prompt) in prompts.enumerated() {
      if let change = skillSwitches[turn] {
        _ = change.on ? activations.activate(change.name) : activations.deactivate(change.name)
      }
      _ = try await session.respond(to: prompt, options: options)
      // The turn's records, up to the latest one (one per generation of its tool loop).
      let latest = session.latestGenerationRecord?.requestID
      var turnRecords: [GenerationRecord] = []
      while latest != nil, turnRecords.last?.requestID != latest, let record = await iterator.next() {
        turnRecords.append(record)
      }
      try await logReading?.readFigures(into: &turnRecords, after: records.count)
      records += turnRecords
    }
    var cacheModel = try PromptCacheModel(blockSize: 1, tokenCounter: counter)
    cacheModel.serverTolerance = templateTokensPerMessage
    cacheModel.toolsInPrompt = templateRendersTools
    let reports = try await CacheImpactAnalyzer.reports(for: records, model: cacheModel)
    return Result(reports: reports, interleavedGenerations: logReading?.interleaved ?? [])
  }

  /// The server's own figures, read turn by turn from llama-cpp-python's log.
  private struct LogReading {
    let log: LlamaCppPythonLog
    /// Where the next turn's requests start in the log.
    var position: UInt64?
    /// The generations whose figures stay unknown (another client's requests came between).
    var interleaved: Set<Int> = []
    var previousTurnShared = false

    init(log: LlamaCppPythonLog) throws {
      self.log = log
      self.position = try log.size()
    }

    /// Sets the server's prompt size and cached tokens on `turnRecords` (the
    /// generations after the first `earlier` of the run), or marks them interleaved.
    mutating func readFigures(into turnRecords: inout [GenerationRecord], after earlier: Int) async throws {
      guard let start = position else { return }
      let excerpt = try await LiveCacheCheck.excerpt(of: log, since: start, atLeast: turnRecords.count)
      position = excerpt.endOffset
      // Another client's request between ours (or after the previous
      // turn's) leaves its prompt in the cache, and the log does not say
      // which request was whose: the server's figures stay unknown.
      let shared =
        excerpt.requests.count > turnRecords.count
        || excerpt.generationRequestCount + excerpt.pendingGenerationRequestCount > turnRecords.count
      // Before our first request the cache holds whatever an earlier client
      // (or an earlier run) left: reuse there is not this conversation's.
      let earlierPrefix = earlier == 0 && (excerpt.requests.first?.cachedTokenCount ?? 0) > 0
      if shared || previousTurnShared || earlierPrefix {
        interleaved.formUnion(earlier..<(earlier + turnRecords.count))
      } else {
        for (index, request) in zip(turnRecords.indices, excerpt.requests) {
          turnRecords[index].usage.input = .init(
            totalTokenCount: request.promptTokenCount, reportedCachedTokenCount: request.cachedTokenCount,
            cachedTokenSource: LlamaCppPythonLog.cachedTokenSource)
        }
      }
      previousTurnShared = shared
    }
  }

  /// The log since `offset`, waiting (at most five seconds) until it holds
  /// `count` complete requests and every generation request it answered has
  /// its figures (they follow a streamed answer's last chunk).
  private static func excerpt(
    of log: LlamaCppPythonLog, since offset: UInt64, atLeast count: Int
  ) async throws -> LlamaCppPythonLog.Excerpt {
    let deadline = ContinuousClock.now + .seconds(5)
    while true {
      let excerpt = try log.excerpt(since: offset)
      let complete = excerpt.requests.count >= count
      if complete && excerpt.pendingGenerationRequestCount == 0 { return excerpt }
      guard ContinuousClock.now < deadline else {
        // Another client's request still running: the caller sees it pending.
        if complete { return excerpt }
        throw CheckError(
          description: "\(log.url.path) shows \(excerpt.requests.count) finished requests, "
            + "expected \(count): is it the log of the server at this endpoint, with verbose output?")
      }
      try await Task.sleep(for: .milliseconds(50))
    }
  }
}
