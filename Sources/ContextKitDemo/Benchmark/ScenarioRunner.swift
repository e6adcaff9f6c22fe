import AgentSkills
import DemoSupport
import Foundation
import HistoryCompression
import ModelSession

/// Plays recorded conversations through a real `LanguageModelSession`, with
/// a ``ReplayLanguageModel``, the conversation's tools, the skills catalog
/// and a compression strategy, and collects the session's generation records.
///
/// ```swift
/// let runner = ScenarioRunner(skills: try SkillsLibrary(root: URL(filePath: "SkillsLibrary")).skills)
/// let run = try await runner.run(DemoScenarios.all()[0], strategy: .compactingHistory)
/// print(run.records.count)
/// ```
package struct ScenarioRunner: Sendable {
  /// The skills offered to conversations that use skills.
  package var skills: [Skill]
  /// Whether to drive the strategies into the model's refusals, to show
  /// the session's recovery (`contextkit demo --count-half`): ContextKit's
  /// strategies count half of each token estimate (``ScaledTokenCounter``),
  /// as a tokenizer that disagrees with the model's would, and the replay
  /// model refuses, as a server with that window would, any request larger
  /// than the conversation's budget. A strategy that cannot compact on
  /// overflow fails its run at the first refusal.
  package var countsHalf: Bool

  /// Creates a runner.
  package init(skills: [Skill], countsHalf: Bool = false) {
    self.skills = skills
    self.countsHalf = countsHalf
  }

  /// Plays `conversation` under `strategy`.
  ///
  /// - Throws: ``ReplayError`` when the session and the recording disagree,
  ///   or any error of a turn (a strategy's error fails the run).
  package func run(
    _ conversation: ReplayConversation, strategy: CompressionStrategy
  ) async throws -> ScenarioRun {
    let model = ReplayLanguageModel(
      conversation: conversation, contextSize: countsHalf ? conversation.budget : nil)
    let summarizer = ReplaySummarizer()
    let tools: [any Tool] = try conversation.tools.map { try ReplayTool(spec: $0) }
    let catalog =
      conversation.usesSkills && !skills.isEmpty
      ? Skills(activations: SkillActivations(), skills: skills) : nil
    let base = Profile {
      Instructions(conversation.instructions)
      tools
      if let catalog { catalog }
    }
    let profile = strategy.apply(
      to: base, budget: conversation.budget, summarizer: summarizer, store: SummaryStore(),
      tokenCounter: countsHalf ? ScaledTokenCounter(EstimatingTokenCounter(), dividingBy: 2) : nil)
    let records = try await Self.play(conversation, model: model, profile: profile)
    return ScenarioRun(
      conversation: conversation.name, strategy: strategy, budget: conversation.budget, records: records,
      summarizerCalls: summarizer.callCount)
  }

  private static func play(
    _ conversation: ReplayConversation, model: ReplayLanguageModel, profile: some DynamicProfile
  ) async throws -> [GenerationRecord] {
    let session = LanguageModelSession(model: model, profile: profile, maximumToolRounds: 32)
    var iterator = session.generationRecords.makeAsyncIterator()
    for turn in conversation.turns {
      try await session.respond(to: turn.prompt)
    }
    var records: [GenerationRecord] = []
    records.reserveCapacity(model.cursor.requestCount)
    for _ in 0..<model.cursor.requestCount {
      guard let record = await iterator.next() else { break }
      records.append(record)
    }
    return records
  }
}
