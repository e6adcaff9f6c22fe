import HistoryCompression
import ModelSession

/// A way to keep a conversation's history in its context budget, as the
/// benchmark and the demo compare them.
///
/// The two `baseline…` strategies reproduce the companion package's
/// behaviour (``CompanionRollingWindowBaseline``,
/// ``CompanionSummarizeBaseline``); the others are ContextKit's modifiers,
/// each given the conversation's budget in tokens.
package enum CompressionStrategy: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// The history is sent whole.
  case none
  /// The companion package's rolling window of entries, trimming every turn.
  case baselineRollingWindow
  /// The companion package's summarizer, re-summarizing on every prompt past an entry threshold.
  case baselineSummarize
  /// ContextKit's `rollingWindow(.tokens(budget))`.
  case rollingWindow
  /// ContextKit's `summarizeHistory(threshold: .tokens(budget))`.
  case summarizeHistory
  /// ContextKit's `compactingHistory(tokenBudget:)`, dropping the oldest turns.
  case compactingHistory
  /// ContextKit's `compactingHistory(tokenBudget:model:)`, summarizing the oldest turns.
  case compactingHistorySummarized

  /// The entries the baselines keep or summarize past.
  package static let baselineEntryCount = 24

  /// How the strategy is written in code, with the budget as a word:
  /// `rollingWindow(.tokens(budget))` (tables give the budget in their own column).
  package var label: String {
    switch self {
    case .none: "no compression"
    case .baselineRollingWindow: "baseline rollingWindow(entries: \(Self.baselineEntryCount))"
    case .baselineSummarize: "baseline summarizeHistory(entryThreshold: \(Self.baselineEntryCount))"
    case .rollingWindow: "rollingWindow(.tokens(budget))"
    case .summarizeHistory: "summarizeHistory(threshold: .tokens(budget))"
    case .compactingHistory: "compactingHistory(tokenBudget:)"
    case .compactingHistorySummarized: "compactingHistory(tokenBudget:model:)"
    }
  }

  /// The short name, as in tables: `compactingHistory`.
  package var description: String { rawValue }

  /// Whether the strategy is one of the companion package's, reproduced as a baseline.
  package var isBaseline: Bool { self == .baselineRollingWindow || self == .baselineSummarize }

  /// Whether the strategy calls a summarizer model.
  package var usesSummarizer: Bool {
    switch self {
    case .baselineSummarize, .summarizeHistory, .compactingHistorySummarized: true
    default: false
    }
  }

  /// Whether the strategy's modifier compacts when the model refuses a
  /// prompt as larger than its window, so that the session retries the
  /// generation (`compactingHistory`, with or without a summarizer).
  package var compactsOnContextOverflow: Bool {
    self == .compactingHistory || self == .compactingHistorySummarized
  }

  /// `profile` with the strategy's modifier for a budget of `budget` tokens.
  ///
  /// - Parameters:
  ///   - summarizer: the model that writes summaries, for the strategies that use one.
  ///   - store: where ContextKit's summarizing modifiers keep their summaries
  ///     (give each run its own, so that summarizer calls are counted per run).
  ///   - tokenCounter: what ContextKit's modifiers count tokens with
  ///     (`EstimatingTokenCounter` when `nil`); the baselines count entries.
  package func apply(
    to profile: some DynamicProfile, budget: Int, summarizer: some LanguageModel, store: SummaryStore,
    tokenCounter: (any TokenCounter)? = nil
  ) -> any DynamicProfile {
    switch self {
    case .none:
      return profile
    case .baselineRollingWindow:
      return profile.modifier(CompanionRollingWindowBaseline(entryCount: Self.baselineEntryCount))
    case .baselineSummarize:
      return profile.modifier(
        CompanionSummarizeBaseline(entryThreshold: Self.baselineEntryCount, summarizer: summarizer))
    case .rollingWindow:
      return profile.rollingWindow(.tokens(budget), tokenCounter: tokenCounter)
    case .summarizeHistory:
      return profile.summarizeHistory(
        threshold: .tokens(budget), model: summarizer, tokenCounter: tokenCounter,
        options: SummarizeHistory.Options(store: store))
    case .compactingHistory:
      return profile.compactingHistory(tokenBudget: budget, tokenCounter: tokenCounter)
    case .compactingHistorySummarized:
      return profile.compactingHistory(
        tokenBudget: budget, model: summarizer, tokenCounter: tokenCounter,
        options: CompactingHistory.Options(store: store))
    }
  }
}
