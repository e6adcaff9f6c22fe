import CacheAnalysis

/// The per-generation table of a run's cache impact, and its totals row:
/// what `contextkit analyze` prints and the report page shows.
///
/// ```swift
/// print(CacheImpactTable.text(for: reports))
/// ```
public enum CacheImpactTable {
  /// The column headings.
  public static let headings = [
    "#", "turn", "prompt", "reused", "re-processed", "hit %", "diverged at", "cause",
  ]
  /// The columns that hold numbers.
  public static let numericColumns: Set<Int> = [0, 2, 3, 4, 5]

  /// One row per report.
  public static func rows(for reports: [CacheImpactReport]) -> [[String]] {
    reports.map { report in
      [
        String(report.generationIndex), "\(report.turnIndex).\(report.round)",
        String(report.promptTokenCount),
        String(report.reusedTokenCount), String(report.reprocessedTokenCount), percent(report.hitRatio),
        report.divergence.map { "\($0.location)" } ?? "", report.cause.description,
      ]
    }
  }

  /// The totals row of `summary`.
  public static func totalsRow(for summary: CacheImpactSummary) -> [String] {
    [
      "total", "\(summary.generationCount) gen.", String(summary.promptTokenCount),
      String(summary.reusedTokenCount), String(summary.reprocessedTokenCount), percent(summary.hitRatio), "",
      "\(summary.invalidations.reduce(0) { $0 + $1.count }) invalidations",
    ]
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
    let tenths = Int((ratio * 1_000).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
}
