import ModelSession

/// One conversation played under one strategy: the session's generation
/// records, and what the run cost besides the prompts.
public struct ScenarioRun: Sendable {
  /// The conversation's name.
  public var conversation: String
  /// The strategy it ran under.
  public var strategy: CompressionStrategy
  /// The conversation's budget in tokens.
  public var budget: Int
  /// The session's records, one per generation, in order.
  public var records: [GenerationRecord]
  /// The summarizer's calls during the run.
  public var summarizerCalls: Int

  /// Creates a run.
  public init(
    conversation: String, strategy: CompressionStrategy, budget: Int, records: [GenerationRecord],
    summarizerCalls: Int
  ) {
    self.conversation = conversation
    self.strategy = strategy
    self.budget = budget
    self.records = records
    self.summarizerCalls = summarizerCalls
  }
}
