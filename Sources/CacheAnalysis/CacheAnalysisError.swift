/// A cache model or analyzer configured with a value it cannot work with, or
/// records that cannot be read.
public enum CacheAnalysisError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A cache block size below 1 token.
  case invalidBlockSize(Int)
  /// A minimum cacheable length below 0 tokens.
  case invalidMinimumCacheableTokens(Int)
  /// A look-back of fewer than 1 earlier request.
  case invalidLookback(Int)
  /// A file of generation records that could not be read or decoded.
  case unreadableRecords(path: String, reason: String)

  /// What is wrong, and where.
  public var description: String {
    switch self {
    case .invalidBlockSize(let size):
      "PromptCacheModel: the block size is \(size) tokens, it must be at least 1"
    case .invalidMinimumCacheableTokens(let count):
      "PromptCacheModel: the minimum cacheable length is \(count) tokens, it must be 0 or more"
    case .invalidLookback(let count):
      "PromptCacheModel: the look-back is \(count) requests, it must be at least 1"
    case .unreadableRecords(let path, let reason):
      "\(path): cannot read generation records: \(reason)"
    }
  }
}
