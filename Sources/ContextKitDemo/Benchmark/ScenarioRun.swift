import ModelSession

/// One conversation played under one strategy: the session's generation
/// records, and what the run cost besides the prompts.
package struct ScenarioRun: Sendable {
  /// The conversation's name.
  package var conversation: String
  /// The strategy it ran under.
  package var strategy: CompressionStrategy
  /// The conversation's budget in tokens.
  package var budget: Int
  /// The session's records, one per generation, in order.
  package var records: [GenerationRecord]
  /// The summarizer's calls during the run.
  package var summarizerCalls: Int

  /// Creates a run.
  package init(
    conversation: String, strategy: CompressionStrategy, budget: Int, records: [GenerationRecord],
    summarizerCalls: Int
  ) {
    self.conversation = conversation
    self.strategy = strategy
    self.budget = budget
    self.records = records
    self.summarizerCalls = summarizerCalls
  }

  /// The generations the session retried after the model refused their
  /// prompts, from the records' notes.
  package var recoveries: [RecoveredGeneration] {
    RecoveredGeneration.all(in: records, conversation: conversation, strategy: strategy)
  }
}
