/// How one strategy did over a set of conversations: prompt-cache reuse at
/// two block sizes, what the server re-processes (and how that compares with
/// the floor of genuinely new tokens), how much of the budget the model
/// sees, the context's peak, the turns over budget and the summarizer's calls.
package struct StrategyResult: Sendable, Hashable, Codable {
  /// The strategy.
  package var strategy: CompressionStrategy
  /// The strategy as written in code.
  package var label: String
  /// The conversations played.
  package var conversationCount: Int
  /// Their user turns.
  package var turnCount: Int
  /// Their generations (tool-loop rounds included).
  package var generationCount: Int
  /// The prompt tokens of every generation.
  package var promptTokenCount: Int
  /// The prompt tokens a cache in blocks of 16 tokens serves.
  package var reusedTokenCount16: Int
  /// The prompt tokens a cache in blocks of 128 tokens serves.
  package var reusedTokenCount128: Int
  /// The prompt tokens processed again with blocks of 16: `promptTokenCount - reusedTokenCount16`.
  package var reprocessedTokenCount: Int
  /// The genuinely new prompt tokens of every generation (see ``ReprocessingFloor``).
  package var floorTokenCount: Int
  /// The mean over generations of the prompt's size as a share of the budget.
  package var visibleShareOfBudget: Double
  /// The largest prompt of any generation.
  package var peakContextTokenCount: Int
  /// The turns with a generation whose prompt was over the conversation's budget.
  package var turnsOverBudget: Int
  /// The generations that invalidated part of the cache.
  package var invalidationCount: Int
  /// The summarizer's calls.
  package var summarizerCalls: Int
  /// The generations the session retried after the model refused their
  /// prompts as larger than its window (their `contextOverflowRecovered` notes).
  package var contextOverflowRecoveryCount: Int

  /// Creates a result.
  package init(
    strategy: CompressionStrategy, label: String, conversationCount: Int, turnCount: Int,
    generationCount: Int,
    promptTokenCount: Int, reusedTokenCount16: Int, reusedTokenCount128: Int, floorTokenCount: Int,
    visibleShareOfBudget: Double, peakContextTokenCount: Int, turnsOverBudget: Int, invalidationCount: Int,
    summarizerCalls: Int, contextOverflowRecoveryCount: Int = 0
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
    self.floorTokenCount = floorTokenCount
    self.visibleShareOfBudget = visibleShareOfBudget
    self.peakContextTokenCount = peakContextTokenCount
    self.turnsOverBudget = turnsOverBudget
    self.invalidationCount = invalidationCount
    self.summarizerCalls = summarizerCalls
    self.contextOverflowRecoveryCount = contextOverflowRecoveryCount
  }

  /// The share of prompt tokens reused with blocks of 16 tokens.
  package var hitRatio16: Double {
    promptTokenCount > 0 ? Double(reusedTokenCount16) / Double(promptTokenCount) : 0
  }

  /// The share of prompt tokens reused with blocks of 128 tokens.
  package var hitRatio128: Double {
    promptTokenCount > 0 ? Double(reusedTokenCount128) / Double(promptTokenCount) : 0
  }

  /// The tokens re-processed (blocks of 16) per genuinely new token: 1 is the floor.
  package var reprocessedPerFloorToken: Double {
    floorTokenCount > 0 ? Double(reprocessedTokenCount) / Double(floorTokenCount) : 0
  }
}
