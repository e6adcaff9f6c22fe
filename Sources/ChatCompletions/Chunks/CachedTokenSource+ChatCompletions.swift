import ModelSession

extension CachedTokenSource {
  /// `usage.prompt_tokens_details.cached_tokens`: OpenAI, vLLM (with
  /// `--enable-prompt-tokens-details`), SGLang (with `--enable-cache-report`),
  /// llama.cpp's `llama-server` (since 2026).
  public static let promptTokensDetails = CachedTokenSource(
    rawValue: "usage.prompt_tokens_details.cached_tokens")

  /// `usage.prompt_cache_hit_tokens`: DeepSeek.
  public static let promptCacheHitTokens = CachedTokenSource(rawValue: "usage.prompt_cache_hit_tokens")

  /// `timings.cache_n`: llama.cpp's `llama-server`.
  public static let llamaCppTimings = CachedTokenSource(rawValue: "timings.cache_n")
}
