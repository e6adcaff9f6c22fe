import Foundation
import ModelSession

/// The totals of a sequence of cache-impact reports: a session's prompt
/// tokens, how many a cache could reuse, and the invalidations by cause.
///
/// ```swift
/// let summary = CacheImpactSummary(reports: reports)
/// print(summary.hitRatio, summary.invalidations)
/// ```
public struct CacheImpactSummary: Sendable, Hashable, Codable, CustomStringConvertible {
  /// How many times one cause invalidated the cache, and the tokens it made the server re-process.
  public struct Invalidations: Sendable, Hashable, Codable {
    /// The cause's grouping key (see ``CacheImpactCause/groupingKey``).
    public var cause: String
    /// The generations it invalidated.
    public var count: Int
    /// The tokens re-processed in those generations.
    public var reprocessedTokenCount: Int

    /// Creates a count.
    public init(cause: String, count: Int, reprocessedTokenCount: Int) {
      self.cause = cause
      self.count = count
      self.reprocessedTokenCount = reprocessedTokenCount
    }
  }

  /// The generations analyzed.
  public var generationCount: Int
  /// The prompt tokens of every generation.
  public var promptTokenCount: Int
  /// The prompt tokens a cache could serve.
  public var reusedTokenCount: Int
  /// The prompt tokens processed again.
  public var reprocessedTokenCount: Int
  /// The largest prompt.
  public var peakPromptTokenCount: Int
  /// Invalidations by cause, the most re-processed tokens first (ties by name).
  public var invalidations: [Invalidations]
  /// The prompt tokens the server reported, over the generations that report
  /// their cached tokens.
  public var serverInputTokenCount: Int
  /// The cached tokens the server reported, over the same generations.
  public var serverCachedInputTokenCount: Int
  /// The generations whose server reported its cached tokens (the others are
  /// unknown, not misses).
  public var serverReportedGenerationCount: Int
  /// The predicted reuse over the same generations, to compare with
  /// ``serverCachedInputTokenCount``.
  public var predictedReusedTokenCountWhereReported: Int
  /// How many compared generations had each cause (``ServerReuseComparison/Cause``), by raw value.
  public var serverComparisonCauses: [String: Int]

  /// The totals of `reports`.
  public init(reports: [CacheImpactReport]) {
    generationCount = reports.count
    // Sums saturate: a report's counts can come from a records file, and a trap is a crash.
    promptTokenCount = reports.map(\.promptTokenCount).saturatedSum()
    reusedTokenCount = reports.map(\.reusedTokenCount).saturatedSum()
    reprocessedTokenCount = promptTokenCount.subtractingSaturated(reusedTokenCount)
    peakPromptTokenCount = reports.map(\.promptTokenCount).max() ?? 0
    var byCause: [String: Invalidations] = [:]
    for report in reports where report.cause.isInvalidation {
      let key = report.cause.groupingKey
      byCause[key, default: Invalidations(cause: key, count: 0, reprocessedTokenCount: 0)].count += 1
      byCause[key, default: Invalidations(cause: key, count: 0, reprocessedTokenCount: 0)]
        .reprocessedTokenCount.addSaturated(report.reprocessedTokenCount)
    }
    invalidations = byCause.values.sorted {
      ($0.reprocessedTokenCount, $1.cause) > ($1.reprocessedTokenCount, $0.cause)
    }
    let compared = reports.compactMap(\.serverComparison)
    serverInputTokenCount = compared.map(\.reportedPromptTokenCount).saturatedSum()
    serverCachedInputTokenCount = compared.map(\.reportedTokenCount).saturatedSum()
    serverReportedGenerationCount = compared.count
    predictedReusedTokenCountWhereReported = compared.map(\.predictedTokenCount).saturatedSum()
    serverComparisonCauses = compared.reduce(into: [:]) { $0[$1.cause.rawValue, default: 0] += 1 }
  }

  /// The summed prediction's distance from the server's sum, as a share of
  /// the server's (0.03: 3% off), over the generations the server reported;
  /// `nil` when none did or it reported no cached tokens.
  public var predictionError: Double? {
    guard serverCachedInputTokenCount > 0 else { return nil }
    return (Double(predictedReusedTokenCountWhereReported) - Double(serverCachedInputTokenCount))
      / Double(serverCachedInputTokenCount)
  }

  /// The share of prompt tokens reused, from 0 to 1 (0 when there were none).
  public var hitRatio: Double {
    promptTokenCount > 0 ? Double(reusedTokenCount) / Double(promptTokenCount) : 0
  }

  /// The share the server reported cached, when any generation reported usage.
  public var serverHitRatio: Double? {
    serverInputTokenCount > 0 ? Double(serverCachedInputTokenCount) / Double(serverInputTokenCount) : nil
  }

  /// A few lines: totals, then one line per cause.
  public var description: String {
    var lines = [
      "\(generationCount) generations, \(promptTokenCount) prompt tokens, \(reusedTokenCount) reused "
        + "(\(Int(saturating: (hitRatio * 100).rounded()))%), \(reprocessedTokenCount) re-processed"
    ]
    if let serverHitRatio {
      var line =
        "server: \(serverCachedInputTokenCount)/\(serverInputTokenCount) cached "
        + "(\(Int(saturating: (serverHitRatio * 100).rounded()))%) over \(serverReportedGenerationCount) generations; "
        + "predicted \(predictedReusedTokenCountWhereReported) there"
      if let predictionError {
        line += String(format: " (%+.1f%%)", predictionError * 100)
      }
      lines.append(line)
      let differing = serverComparisonCauses.filter { $0.key != ServerReuseComparison.Cause.agrees.rawValue }
      for (cause, count) in differing.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
        lines.append("  server reused a different amount: \(cause) \(count)×")
      }
    }
    for invalidation in invalidations {
      lines.append(
        "  \(invalidation.cause): \(invalidation.count)×, \(invalidation.reprocessedTokenCount) tokens re-processed"
      )
    }
    return lines.joined(separator: "\n")
  }
}
