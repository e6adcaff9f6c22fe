import ModelSession

/// The token numbers one generation of ``CompactingHistory`` works with: its
/// budget and target resolved against the model's window (for shares), less
/// the tokens reserved for the response, and tightened to what fits after
/// the model refused a prompt as too long.
struct CompactionLimits: Sendable, Equatable {
  /// The most tokens of history the model may see.
  var budget: Int
  /// The tokens of history a compaction brings it down to.
  var target: Int
  /// The tokens set aside for a summary entry.
  var summaryReserve: Int
  /// The most tokens the pinned first turns may take.
  var pinnedTokens: Int
  /// Whether the model's refusal of a prompt (``ProfileModifierContext/contextOverflow``)
  /// made the limits tighter than the modifier's own.
  var fittedToOverflow = false

  /// Resolves `modifier`'s settings for the generation of `context`.
  ///
  /// - Throws: ``HistoryCompressionError`` for a setting it cannot work with:
  ///   a size below 1, a share of an unknown window, a target not below the
  ///   budget, a response reserve that leaves no room.
  static func resolve(
    _ modifier: CompactingHistory, in context: ProfileModifierContext
  ) async throws -> CompactionLimits {
    let needsWindow =
      modifier.tokenBudget.needsContextSize || modifier.contextTarget?.needsContextSize == true
    let window = needsWindow ? await knownContextSize(in: context) : nil
    var limits = try resolve(
      modifier, contextSize: window, reservedResponseTokens: context.reservedResponseTokens)
    if let overflow = context.contextOverflow {
      let counted = try await modifier.tokenCounter.tokenCounts(of: overflow.refusedTranscript.entries)
        .saturatedSum()
      limits.fit(within: overflow.fittingTokenCount(counted: counted))
    }
    return limits
  }

  /// Resolves `modifier`'s settings for a window of `contextSize` tokens
  /// (needed by shares only) and a response reserve of `reservedResponseTokens`.
  static func resolve(
    _ modifier: CompactingHistory, contextSize window: Int?, reservedResponseTokens reserved: Int
  ) throws -> CompactionLimits {
    let name = modifier.name
    let budgetTokens = try modifier.tokenBudget.tokenCount(
      contextSize: window, modifier: name, name: "tokenBudget")
    try HistorySize.tokens(budgetTokens).validated(for: name)
    let budget = budgetTokens.subtractingSaturated(reserved)
    guard budget >= 1 else {
      throw HistoryCompressionError.noRoomForHistory(
        modifier: name, budget: budgetTokens, reservedResponseTokens: reserved)
    }
    var target = budget * 3 / 8
    if let given = modifier.contextTarget {
      let targetTokens = try given.tokenCount(contextSize: window, modifier: name, name: "target")
      try HistorySize.tokens(targetTokens).validated(for: name)
      target = targetTokens.subtractingSaturated(reserved)
      guard target >= 1 else {
        throw HistoryCompressionError.noRoomForHistory(
          modifier: name, budget: targetTokens, reservedResponseTokens: reserved)
      }
    }
    let limits = CompactionLimits(
      budget: budget, target: target, summaryReserve: modifier.givenSummaryReserve ?? target / 4,
      pinnedTokens: modifier.givenPinnedTokens ?? (modifier.model == nil ? target * 5 / 8 : 0))
    try limits.validate(for: modifier)
    return limits
  }

  /// The window: the model's own word first, then the size its latest refusal gave.
  private static func knownContextSize(in context: ProfileModifierContext) async -> Int? {
    if let sizing = context.model as? any ContextSizeProviding, let size = try? await sizing.contextSize,
      size > 0
    {
      return size
    }
    return context.contextOverflow?.contextSize
  }

  /// Scales every limit down by `fitting / budget` when the history must
  /// fit `fitting` tokens and the budget is larger; the target, reserve and
  /// pinned turns keep their proportions.
  mutating func fit(within fitting: Int) {
    guard fitting < budget else { return }
    let newBudget = max(fitting, 2)
    func scaled(_ value: Int) -> Int {
      Int((Double(value) * Double(newBudget) / Double(budget)).rounded(.down))
    }
    target = min(max(scaled(target), 1), newBudget - 1)
    summaryReserve = min(scaled(summaryReserve), target - 1)
    pinnedTokens = min(scaled(pinnedTokens), target - 1)
    budget = newBudget
    fittedToOverflow = true
  }

  private func validate(for modifier: CompactingHistory) throws {
    let name = modifier.name
    try HistorySize.tokens(target).validated(for: name)
    guard target < budget else {
      throw HistoryCompressionError.invalidFraction(
        modifier: name, name: "target / budget", value: Double(target) / Double(budget), range: "(0, 1)")
    }
    guard modifier.model == nil || (summaryReserve >= 0 && summaryReserve < target) else {
      throw HistoryCompressionError.invalidFraction(
        modifier: name, name: "summaryReserve / target", value: Double(summaryReserve) / Double(target),
        range: "[0, 1)")
    }
    guard modifier.model == nil || modifier.options.timeout > .zero else {
      throw HistoryCompressionError.invalidTimeout(modifier: name, timeout: modifier.options.timeout)
    }
    guard pinnedTokens >= 0, pinnedTokens < target else {
      throw HistoryCompressionError.invalidFraction(
        modifier: name, name: "pinnedTokens / target", value: Double(pinnedTokens) / Double(target),
        range: "[0, 1)")
    }
  }
}
