/// How finely ``PromptCacheModel`` counts the reuse of a prompt whose block changed.
///
/// Servers match a cached prefix token by token (llama.cpp) or in blocks of
/// a few tokens (vLLM and SGLang: 16 by default), so they also reuse the
/// unchanged start of a changed block: the instructions before a skill's
/// text, the framing of a rewritten message.
public enum ReuseGranularity: String, Sendable, Hashable, Codable, CaseIterable {
  /// Whole prompt blocks only: a changed block counts as changed from its
  /// first token (what ContextKit predicted before 0.3; it under-counts by
  /// the unchanged start of the block).
  case block
  /// Whole prompt blocks, then the changed block's common start
  /// (``ChangedBlockStart``): from the tokenizer when the model has one,
  /// else estimated from the common characters. Rounded down to
  /// ``PromptCacheModel/blockSize`` with the rest.
  case token
}
