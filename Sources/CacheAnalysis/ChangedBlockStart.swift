/// The unchanged start of the first prompt block that differs from the
/// cached one: a server that reuses prefixes token by token (llama.cpp), or
/// in small blocks (vLLM, SGLang), still reuses it.
///
/// With a tokenizer (``PromptCacheModel/tokenizer``) ``tokenCount`` is the
/// two blocks' common token prefix; without one it is estimated from the
/// bytes their texts share at the start, in proportion to the block's
/// tokens, and ``isEstimate`` says so.
///
/// ```swift
/// if let start = report.match.changedBlockStart {
///   print("\(start.tokenCount) tokens of the changed block reused", start.isEstimate ? "(estimate)" : "")
/// }
/// ```
public struct ChangedBlockStart: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The tokens the changed block shares at its start with the cached block
  /// (at most the smaller of the two blocks' counts).
  public var tokenCount: Int
  /// The UTF-8 bytes the two blocks' canonical texts share at their start.
  public var sharedByteCount: Int
  /// Whether ``tokenCount`` is an estimate from the shared bytes (no tokenizer).
  public var isEstimate: Bool

  /// Creates a changed block's start.
  public init(tokenCount: Int, sharedByteCount: Int, isEstimate: Bool) {
    self.tokenCount = tokenCount
    self.sharedByteCount = sharedByteCount
    self.isEstimate = isEstimate
  }

  /// `551 tokens`, or `~548 tokens (estimated)` without a tokenizer.
  public var description: String {
    isEstimate ? "~\(tokenCount) tokens (estimated)" : "\(tokenCount) tokens"
  }
}
