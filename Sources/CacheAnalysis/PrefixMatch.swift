/// How much of a prompt a server's cache could reuse: the longest run of
/// leading blocks that an earlier cached stream renders the same, and the
/// tokens of it the cache actually serves after rounding down to whole cache
/// blocks and applying the minimum cacheable length.
public struct PrefixMatch: Sendable, Hashable, Codable {
  /// The leading prompt blocks that render the same as in the best cached stream.
  public var sharedBlockCount: Int
  /// The tokens of those blocks, and of the changed block's unchanged start
  /// (``changedBlockStart``) when the model counts it.
  public var sharedTokenCount: Int
  /// The tokens the cache serves: `sharedTokenCount` rounded down to a
  /// multiple of the block size, or 0 when that is below the minimum cacheable length.
  public var reusedTokenCount: Int
  /// Which earlier stream the match is against: 1 for the previous request,
  /// 2 for the one before it, …; `nil` when nothing was cached.
  public var sourceDistance: Int?
  /// The start of the first block that differs, which a server still reuses
  /// (``ReuseGranularity/token``); `nil` when the prompt extends the cached
  /// stream, the two blocks share nothing, or the model counts whole blocks.
  public var changedBlockStart: ChangedBlockStart?

  /// Creates a match.
  public init(
    sharedBlockCount: Int, sharedTokenCount: Int, reusedTokenCount: Int, sourceDistance: Int?,
    changedBlockStart: ChangedBlockStart? = nil
  ) {
    self.sharedBlockCount = sharedBlockCount
    self.sharedTokenCount = sharedTokenCount
    self.reusedTokenCount = reusedTokenCount
    self.sourceDistance = sourceDistance
    self.changedBlockStart = changedBlockStart
  }

  /// Nothing cached, nothing reused.
  public static let none = PrefixMatch(
    sharedBlockCount: 0, sharedTokenCount: 0, reusedTokenCount: 0, sourceDistance: nil)
}
