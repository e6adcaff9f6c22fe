import CacheAnalysis

extension CacheReportPage {
  /// Adds the analysis of one run: its totals, the chart, the invalidations
  /// with their causes, and the per-generation table (folded).
  ///
  /// - Parameters:
  ///   - reports: the run's reports, one per generation, in order.
  ///   - title: the run's name, as the chart's title.
  ///   - budget: the context budget to draw on the chart, when known.
  public mutating func appendAnalysis(of reports: [CacheImpactReport], title: String, budget: Int? = nil) {
    append(contentsOf: Self.analysisBlocks(of: reports, title: title, budget: budget))
  }

  /// The blocks ``appendAnalysis(of:title:budget:)`` adds.
  public static func analysisBlocks(
    of reports: [CacheImpactReport], title: String, budget: Int? = nil
  ) -> [Block] {
    var blocks: [Block] = []
    func append(_ block: Block) { blocks.append(block) }
    let summary = CacheImpactSummary(reports: reports)
    append(
      .paragraph(
        "\(summary.generationCount) generations, \(summary.promptTokenCount) prompt tokens, "
          + "\(summary.reusedTokenCount) reused (\(CacheImpactTable.percent(summary.hitRatio))%), "
          + "\(summary.reprocessedTokenCount) re-processed; the largest prompt took \(summary.peakPromptTokenCount) tokens."
      ))
    append(.chart(CacheImpactChart(reports: reports, title: title, budget: budget).svg))
    if !summary.invalidations.isEmpty {
      append(
        .table(
          headings: ["cause", "invalidations", "tokens re-processed"],
          rows: summary.invalidations.map { [$0.cause, String($0.count), String($0.reprocessedTokenCount)] },
          numeric: [1, 2]))
    }
    let invalidated = reports.filter(\.cause.isInvalidation)
    if !invalidated.isEmpty {
      append(
        .details(
          summary: "Every invalidation (\(invalidated.count))",
          blocks: [
            .table(
              headings: ["#", "turn", "re-processed", "diverged at", "cause"],
              rows: invalidated.map { report in
                [
                  String(report.generationIndex), "\(report.turnIndex).\(report.round)",
                  String(report.reprocessedTokenCount), report.divergence.map { "\($0)" } ?? "",
                  report.cause.description,
                ]
              }, numeric: [0, 2])
          ], open: false))
    }
    var rows = CacheImpactTable.rows(for: reports)
    rows.append(CacheImpactTable.totalsRow(for: summary))
    append(
      .details(
        summary: "Every generation (\(reports.count))",
        blocks: [
          .table(headings: CacheImpactTable.headings, rows: rows, numeric: CacheImpactTable.numericColumns)
        ],
        open: false))
    return blocks
  }
}
