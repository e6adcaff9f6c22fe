import Foundation
import ModelSession

/// A modifier that predicts the prompt-cache impact of each generation just
/// before it is sent, and hands the report to a closure. It never changes the
/// history.
///
/// A modifier runs before the generation and sees only the history, so it
/// keeps its own state between generations in a ``CacheImpactTracker``:
/// the previous request it saw, whose output it finds at the start of the
/// next history (the model's entries that follow the previous request).
/// Build the profile once per conversation, or pass a tracker that lives as
/// long as the conversation: a new tracker starts cold.
///
/// What it can see differs from ``CacheImpactObserver``:
/// - it sees the history as it is when it runs, so write it first (it then
///   runs last, after every other modifier); the modifiers that ran before it
///   are named from their `historyRewritten` notes;
/// - the response schema and the context options are not visible to
///   modifiers and are left out of its prediction;
/// - a generation that failed is not seen (no output follows it).
///
/// For the authoritative report, with the server's usage, observe the
/// session's records.
///
/// ```swift
/// Profile { Instructions("You plan trips.") }
///   .reportingCacheImpact { report in logger.info("\(report)") }
///   .compactingHistory(tokenBudget: 8_000)
/// ```
public struct ReportingCacheImpact: DynamicProfileModifier {
  /// The stage's name in generation records: `reportingCacheImpact`.
  public var name: String { "reportingCacheImpact" }
  /// Where the state between generations is kept.
  public let tracker: CacheImpactTracker
  private let action: @Sendable (CacheImpactReport) async -> Void

  /// Creates the modifier.
  public init(
    tracker: CacheImpactTracker = CacheImpactTracker(),
    _ action: @escaping @Sendable (CacheImpactReport) async -> Void
  ) {
    self.tracker = tracker
    self.action = action
  }

  /// Reports the prediction for the request about to be sent; returns `history` unchanged.
  public func transformHistory(
    _ history: Transcript, in context: ProfileModifierContext
  ) async throws -> Transcript {
    let report = try await tracker.predict(history: history, context: context)
    await action(report)
    return history
  }
}

extension DynamicProfile {
  /// Reports the predicted prompt-cache impact of each generation to
  /// `action`, without changing what the model sees (see ``ReportingCacheImpact``).
  ///
  /// ```swift
  /// profile.reportingCacheImpact { report in print(report) }
  /// ```
  public func reportingCacheImpact(
    tracker: CacheImpactTracker = CacheImpactTracker(),
    _ action: @escaping @Sendable (CacheImpactReport) async -> Void
  ) -> ModifiedProfile<Self, ReportingCacheImpact> {
    modifier(ReportingCacheImpact(tracker: tracker, action))
  }
}
