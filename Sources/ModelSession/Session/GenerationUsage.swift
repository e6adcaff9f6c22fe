/// Token counts of one or more generations.
///
/// Each generation's usage is what its executor last reported (usage events are
/// cumulative and replace each other); a turn's usage is the sum over the
/// generations of its tool loop, and a session's the sum over its turns.
public struct GenerationUsage: Sendable, Hashable, Codable {
  /// Prompt tokens.
  public var inputTokenCount: Int
  /// Prompt tokens the server took from its cache.
  public var cachedInputTokenCount: Int
  /// Output tokens, reasoning included.
  public var outputTokenCount: Int
  /// Output tokens spent on reasoning.
  public var reasoningTokenCount: Int

  /// Creates usage.
  public init(
    inputTokenCount: Int = 0, cachedInputTokenCount: Int = 0, outputTokenCount: Int = 0,
    reasoningTokenCount: Int = 0
  ) {
    self.inputTokenCount = inputTokenCount
    self.cachedInputTokenCount = cachedInputTokenCount
    self.outputTokenCount = outputTokenCount
    self.reasoningTokenCount = reasoningTokenCount
  }

  /// No tokens.
  public static let zero = GenerationUsage()

  /// The sum of two usages.
  public static func + (lhs: GenerationUsage, rhs: GenerationUsage) -> GenerationUsage {
    GenerationUsage(
      inputTokenCount: lhs.inputTokenCount + rhs.inputTokenCount,
      cachedInputTokenCount: lhs.cachedInputTokenCount + rhs.cachedInputTokenCount,
      outputTokenCount: lhs.outputTokenCount + rhs.outputTokenCount,
      reasoningTokenCount: lhs.reasoningTokenCount + rhs.reasoningTokenCount)
  }

  /// Adds `rhs` to `lhs`.
  public static func += (lhs: inout GenerationUsage, rhs: GenerationUsage) {
    lhs = lhs + rhs
  }
}
