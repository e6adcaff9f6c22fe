import ModelSession

extension ChatCompletionChunk {
  /// Token usage of a whole completion.
  public struct Usage: Decodable, Sendable, Hashable {
    /// Tokens in the prompt, cached ones included.
    public var promptTokens: Int

    /// Tokens generated, reasoning included.
    public var completionTokens: Int

    /// `promptTokens + completionTokens`, as the server reports it.
    public var totalTokens: Int

    /// Prompt tokens the server read from its prefix cache, when it says in
    /// `prompt_tokens_details.cached_tokens` (OpenAI, vLLM, SGLang, llama.cpp's
    /// `llama-server` since 2026).
    public var cachedPromptTokens: Int?

    /// DeepSeek's `prompt_cache_hit_tokens`: prompt tokens read from its
    /// context cache, beside ``promptCacheMissTokens`` (the two add up to the prompt).
    public var promptCacheHitTokens: Int?

    /// DeepSeek's `prompt_cache_miss_tokens`: prompt tokens not in its cache.
    public var promptCacheMissTokens: Int?

    /// Generated tokens spent on reasoning, when the server says.
    public var reasoningTokens: Int?

    /// Creates a usage record.
    public init(
      promptTokens: Int, completionTokens: Int, totalTokens: Int? = nil, cachedPromptTokens: Int? = nil,
      reasoningTokens: Int? = nil, promptCacheHitTokens: Int? = nil, promptCacheMissTokens: Int? = nil
    ) {
      self.promptTokens = promptTokens
      self.completionTokens = completionTokens
      self.totalTokens = totalTokens ?? promptTokens.addingSaturated(completionTokens)
      self.cachedPromptTokens = cachedPromptTokens
      self.reasoningTokens = reasoningTokens
      self.promptCacheHitTokens = promptCacheHitTokens
      self.promptCacheMissTokens = promptCacheMissTokens
    }

    /// The server's cached prompt tokens and the field they came from:
    /// `prompt_tokens_details.cached_tokens` when present, else DeepSeek's
    /// `prompt_cache_hit_tokens`; `nil` when the usage has neither (unknown,
    /// not 0). A figure larger than the prompt is no figure: it is left out.
    public var cachedPromptTokenFigure: (count: Int, source: CachedTokenSource)? {
      let figure: (count: Int, source: CachedTokenSource)? =
        if let cachedPromptTokens {
          (cachedPromptTokens, .promptTokensDetails)
        } else if let promptCacheHitTokens {
          (promptCacheHitTokens, .promptCacheHitTokens)
        } else {
          nil
        }
      guard let figure, figure.count <= promptTokens else { return nil }
      return figure
    }

    private enum CodingKeys: String, CodingKey {
      case promptTokens = "prompt_tokens"
      case completionTokens = "completion_tokens"
      case totalTokens = "total_tokens"
      case promptTokensDetails = "prompt_tokens_details"
      case completionTokensDetails = "completion_tokens_details"
      case promptCacheHitTokens = "prompt_cache_hit_tokens"
      case promptCacheMissTokens = "prompt_cache_miss_tokens"
    }

    private enum PromptDetailsKeys: String, CodingKey {
      case cachedTokens = "cached_tokens"
    }

    private enum CompletionDetailsKeys: String, CodingKey {
      case reasoningTokens = "reasoning_tokens"
    }

    /// Decodes usage from its JSON form, `*_details` objects and DeepSeek's
    /// `prompt_cache_hit_tokens` / `prompt_cache_miss_tokens` included (when
    /// `prompt_tokens` is missing, the prompt is their sum).
    ///
    /// Every count must be a whole number from 0 to 2^53 (`CountRange`):
    /// a server's `-5`, `1.5` or `9223372036854775807` is a `DecodingError`
    /// at its key, never a count that overflows later.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      let hit = try container.decodeCountIfPresent(forKey: .promptCacheHitTokens)
      let miss = try container.decodeCountIfPresent(forKey: .promptCacheMissTokens)
      promptCacheHitTokens = hit
      promptCacheMissTokens = miss
      // Two counts up to 2^53 each: their sum fits.
      let deepSeekPrompt = hit.flatMap { hit in miss.map { hit + $0 } }
      promptTokens = try container.decodeCountIfPresent(forKey: .promptTokens) ?? deepSeekPrompt ?? 0
      completionTokens = try container.decodeCountIfPresent(forKey: .completionTokens) ?? 0
      // Two counts up to 2^53 each: their sum fits.
      totalTokens =
        try container.decodeCountIfPresent(forKey: .totalTokens) ?? promptTokens + completionTokens
      if container.contains(.promptTokensDetails), try !container.decodeNil(forKey: .promptTokensDetails) {
        let details = try container.nestedContainer(
          keyedBy: PromptDetailsKeys.self, forKey: .promptTokensDetails)
        cachedPromptTokens = try details.decodeCountIfPresent(forKey: .cachedTokens)
      }
      if container.contains(.completionTokensDetails),
        try !container.decodeNil(forKey: .completionTokensDetails)
      {
        let details = try container.nestedContainer(
          keyedBy: CompletionDetailsKeys.self, forKey: .completionTokensDetails)
        reasoningTokens = try details.decodeCountIfPresent(forKey: .reasoningTokens)
      }
    }
  }
}
