import CacheAnalysis
import ModelSession

/// The per-generation table of a run's cache impact, and its totals row:
/// what `contextkit analyze` prints and the report page shows.
///
/// ```swift
/// print(CacheImpactTable.text(for: reports))
/// ```
public enum CacheImpactTable {
  /// The column headings.
  public static let headings = [
    "#", "turn", "prompt", "reused", "re-processed", "hit %", "diverged at", "cause", "server cached",
    "server vs predicted",
  ]
  /// The columns that hold numbers.
  public static let numericColumns: Set<Int> = [0, 2, 3, 4, 5, 8]

  /// One row per report.
  public static func rows(for reports: [CacheImpactReport]) -> [[String]] {
    reports.map { report in
      [
        String(report.generationIndex), "\(report.turnIndex).\(report.round)",
        String(report.promptTokenCount),
        String(report.reusedTokenCount), String(report.reprocessedTokenCount), percent(report.hitRatio),
        divergence(report), report.cause.description,
        serverCached(report), serverDifference(report),
      ]
    }
  }

  /// The totals row of `summary`.
  public static func totalsRow(for summary: CacheImpactSummary) -> [String] {
    [
      "total", "\(summary.generationCount) gen.", String(summary.promptTokenCount),
      String(summary.reusedTokenCount), String(summary.reprocessedTokenCount), percent(summary.hitRatio), "",
      "\(summary.invalidations.reduce(0) { $0 + $1.count }) invalidations",
      summary.serverReportedGenerationCount > 0 ? String(summary.serverCachedInputTokenCount) : "",
      summary.predictionError.map { "predicted \(signedPercent($0))" } ?? "",
    ]
  }

  /// Where the prompt diverged, with the changed block's reused start:
  /// `instructions (first 551 reused)`, `entry 7 (prompt) (first ~3 reused)`.
  static func divergence(_ report: CacheImpactReport) -> String {
    guard let divergence = report.divergence else { return "" }
    guard let start = report.match.changedBlockStart else { return "\(divergence.location)" }
    return "\(divergence.location) (first \(start.isEstimate ? "~" : "")\(start.tokenCount) reused)"
  }

  /// The cached tokens the server reported: empty without usage, `?` when it did not say.
  static func serverCached(_ report: CacheImpactReport) -> String {
    guard let usage = report.serverUsage else { return "" }
    return usage.cachedTokenCount.map(String.init) ?? "?"
  }

  /// The server's figure minus the prediction, and the cause when they differ: `-88 cacheCleared`.
  static func serverDifference(_ report: CacheImpactReport) -> String {
    guard let comparison = report.serverComparison else { return "" }
    let sign = comparison.difference > 0 ? "+" : ""
    let amount = "\(sign)\(comparison.difference)"
    return comparison.cause == .agrees ? amount : "\(amount) \(comparison.cause.rawValue)"
  }

  /// A signed ratio as a percentage with one decimal: `+2.5%`, `-0.3%`.
  public static func signedPercent(_ ratio: Double) -> String {
    (ratio < 0 ? "-" : "+") + percent(abs(ratio)) + "%"
  }

  /// The table for a terminal: a row per report, a rule, the totals.
  public static func text(for reports: [CacheImpactReport]) -> String {
    var table = TextTable(
      columns: headings.enumerated().map { index, heading in
        TextTable.Column(heading, alignment: numericColumns.contains(index) ? .right : .left)
      })
    for row in rows(for: reports) { table.append(row) }
    table.appendRule()
    table.append(totalsRow(for: CacheImpactSummary(reports: reports)))
    return table.rendered
  }

  /// A ratio as a percentage with one decimal: `93.8`.
  public static func percent(_ ratio: Double) -> String {
    let tenths = Int(saturating: (ratio * 1_000).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
}
