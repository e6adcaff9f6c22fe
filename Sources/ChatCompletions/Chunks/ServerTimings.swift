import ModelSession

extension ChatCompletionChunk {
  /// llama.cpp's `llama-server` timings, sent beside (or instead of) `usage`
  /// on the last chunk: how many prompt tokens came from its cache
  /// (`cache_n`) and how many it processed (`prompt_n`).
  ///
  /// ```json
  /// "timings": {"cache_n": 236, "prompt_n": 12, "prompt_ms": 30.1, "predicted_n": 48}
  /// ```
  public struct Timings: Decodable, Sendable, Hashable {
    /// Prompt tokens taken from the cache.
    public var cachedPromptTokens: Int?
    /// Prompt tokens processed (not taken from the cache).
    public var processedPromptTokens: Int?
    /// Tokens generated.
    public var predictedTokens: Int?

    /// Creates timings.
    public init(
      cachedPromptTokens: Int? = nil, processedPromptTokens: Int? = nil, predictedTokens: Int? = nil
    ) {
      self.cachedPromptTokens = cachedPromptTokens
      self.processedPromptTokens = processedPromptTokens
      self.predictedTokens = predictedTokens
    }

    private enum CodingKeys: String, CodingKey {
      case cachedPromptTokens = "cache_n"
      case processedPromptTokens = "prompt_n"
      case predictedTokens = "predicted_n"
    }

    /// Decodes the counts, each a whole number from 0 to 2^53 (`CountRange`;
    /// anything else is a `DecodingError` at its key); the other fields
    /// (milliseconds, rates) are ignored.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      cachedPromptTokens = try container.decodeCountIfPresent(forKey: .cachedPromptTokens)
      processedPromptTokens = try container.decodeCountIfPresent(forKey: .processedPromptTokens)
      predictedTokens = try container.decodeCountIfPresent(forKey: .predictedTokens)
    }

    /// `cache_n` and its source, when it is there and no larger than a prompt of `promptTokens`.
    public func cachedPromptTokenFigure(
      ofPrompt promptTokens: Int
    ) -> (count: Int, source: CachedTokenSource)? {
      guard let cachedPromptTokens, cachedPromptTokens <= promptTokens else { return nil }
      return (cachedPromptTokens, .llamaCppTimings)
    }

    /// All prompt tokens, when both counts are there (saturating at `Int.max`).
    public var promptTokens: Int? {
      guard let cachedPromptTokens, let processedPromptTokens else { return nil }
      return cachedPromptTokens.addingSaturated(processedPromptTokens)
    }
  }
}
