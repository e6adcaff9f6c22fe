/// How one strategy did over a set of conversations: prompt-cache reuse at
/// two block sizes, what the server re-processes, the context's peak, the
/// turns over budget and the summarizer's calls.
public struct StrategyResult: Sendable, Hashable, Codable {
  /// The strategy.
  public var strategy: CompressionStrategy
  /// The strategy as written in code.
  public var label: String
  /// The conversations played.
  public var conversationCount: Int
  /// Their user turns.
  public var turnCount: Int
  /// Their generations (tool-loop rounds included).
  public var generationCount: Int
  /// The prompt tokens of every generation.
  public var promptTokenCount: Int
  /// The prompt tokens a cache in blocks of 16 tokens serves.
  public var reusedTokenCount16: Int
  /// The prompt tokens a cache in blocks of 128 tokens serves.
  public var reusedTokenCount128: Int
  /// The prompt tokens processed again with blocks of 16: `promptTokenCount - reusedTokenCount16`.
  public var reprocessedTokenCount: Int
  /// The largest prompt of any generation.
  public var peakContextTokenCount: Int
  /// The turns with a generation whose prompt was over the conversation's budget.
  public var turnsOverBudget: Int
  /// The generations that invalidated part of the cache.
  public var invalidationCount: Int
  /// The summarizer's calls.
  public var summarizerCalls: Int

  /// Creates a result.
  public init(
    strategy: CompressionStrategy, label: String, conversationCount: Int, turnCount: Int,
    generationCount: Int,
    promptTokenCount: Int, reusedTokenCount16: Int, reusedTokenCount128: Int, peakContextTokenCount: Int,
    turnsOverBudget: Int, invalidationCount: Int, summarizerCalls: Int
  ) {
    self.strategy = strategy
    self.label = label
    self.conversationCount = conversationCount
    self.turnCount = turnCount
    self.generationCount = generationCount
    self.promptTokenCount = promptTokenCount
    self.reusedTokenCount16 = reusedTokenCount16
    self.reusedTokenCount128 = reusedTokenCount128
    self.reprocessedTokenCount = promptTokenCount - reusedTokenCount16
    self.peakContextTokenCount = peakContextTokenCount
    self.turnsOverBudget = turnsOverBudget
    self.invalidationCount = invalidationCount
    self.summarizerCalls = summarizerCalls
  }

  /// The share of prompt tokens reused with blocks of 16 tokens.
  public var hitRatio16: Double {
    promptTokenCount > 0 ? Double(reusedTokenCount16) / Double(promptTokenCount) : 0
  }

  /// The share of prompt tokens reused with blocks of 128 tokens.
  public var hitRatio128: Double {
    promptTokenCount > 0 ? Double(reusedTokenCount128) / Double(promptTokenCount) : 0
  }
}
