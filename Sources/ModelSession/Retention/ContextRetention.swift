/// How much retained context (see ``RetainedContext``) a history modifier
/// puts back after a cut: at most `budgetShare` of what the modifier keeps
/// in all, and no single item larger than `itemTokenLimit` tokens.
///
/// What a modifier keeps is its budget for a window (`rollingWindow`'s size)
/// and the size a compaction brings the history down to for the compacting
/// modifiers (`compactingHistory`'s target, `summarizeHistory`'s retained
/// fraction of its threshold): the copies are part of what a cut keeps, and
/// a share of the larger budget would leave a compaction little room for
/// anything else, so that the next compaction came sooner.
///
/// A profile sets it through ``ProfileResolution/contextRetention`` (the
/// skills catalog does, from its own setting); modifiers read it from
/// ``ProfileModifierContext/contextRetention``.
public struct ContextRetention: Sendable, Hashable {
  /// The share of what a modifier keeps that re-attached context may take, in [0, 1].
  public var budgetShare: Double
  /// The most tokens one re-attached item may take; a larger one is left out.
  public var itemTokenLimit: Int

  /// The default share: a quarter.
  public static let defaultBudgetShare = 0.25
  /// The default limit for one item: 5,000 tokens.
  public static let defaultItemTokenLimit = 5_000

  /// Creates the caps; values outside their range are clamped (a share to
  /// [0, 1], a limit to at least 0), so a bad setting re-attaches less, never more.
  public init(
    budgetShare: Double = Self.defaultBudgetShare, itemTokenLimit: Int = Self.defaultItemTokenLimit
  ) {
    self.budgetShare = budgetShare.isFinite ? min(max(budgetShare, 0), 1) : 0
    self.itemTokenLimit = max(itemTokenLimit, 0)
  }

  /// Re-attaches nothing.
  public static let none = ContextRetention(budgetShare: 0, itemTokenLimit: 0)

  /// The share of `budget` in the budget's unit, rounded down.
  func shareOf(_ budget: Int) -> Int {
    guard budget > 0 else { return 0 }
    return Int(saturating: (Double(budget) * budgetShare).rounded(.down))
  }
}
