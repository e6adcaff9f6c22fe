import CacheAnalysis
import CacheReport
import ModelSession

extension LiveCacheCheck.Result {
  /// The table's headings.
  package static let headings = [
    "#", "turn", "prompt (predicted)", "reused (predicted)", "prompt (server)", "reused (server)",
    "difference",
    "why they differ", "prediction's cause",
  ]
  /// The columns of ``headings`` that hold numbers.
  package static let numericColumns: Set<Int> = [0, 2, 3, 4, 5, 6]

  /// One row per generation: the cause of the prediction (with the changed
  /// block's reused start), the predicted prompt and reuse, the server's, the
  /// difference and its cause; then the totals over the generations the
  /// server reported.
  package var rows: [[String]] {
    var rows: [[String]] = []
    for report in reports {
      let comparison = report.serverComparison
      let why =
        if interleavedGenerations.contains(report.generationIndex) {
          report.generationIndex == 0
            ? "the server held an earlier client's prefix: not compared"
            : "another client's request ran: not compared"
        } else {
          comparison.map { $0.cause == .agrees ? "" : $0.cause.rawValue } ?? "server did not say"
        }
      var cause = report.cause.groupingKey
      if let start = report.match.changedBlockStart {
        cause += ", first \(start) of the changed block reused"
      }
      rows.append([
        String(report.generationIndex), "\(report.turnIndex).\(report.round)",
        String(report.promptTokenCount),
        String(report.reusedTokenCount), report.serverUsage.map { String($0.totalTokenCount) } ?? "",
        report.serverUsage?.cachedTokenCount.map(String.init) ?? "?",
        comparison.map { signed($0.difference) } ?? "", why, cause,
      ])
    }
    return rows
  }

  /// The totals over the generations the server reported.
  package var totalsRow: [String] {
    let summary = summary
    return [
      "total", "\(summary.serverReportedGenerationCount) compared",
      String(reports.compactMap(\.serverComparison).map(\.predictedPromptTokenCount).saturatedSum()),
      String(summary.predictedReusedTokenCountWhereReported), String(summary.serverInputTokenCount),
      String(summary.serverCachedInputTokenCount),
      signed(
        summary.serverCachedInputTokenCount.subtractingSaturated(
          summary.predictedReusedTokenCountWhereReported)),
      summary.predictionError.map { "prediction " + CacheImpactTable.signedPercent($0) + " of the server's" }
        ?? "",
      "",
    ]
  }

  /// ``rows`` and ``totalsRow`` as a text table.
  package var table: String {
    var table = TextTable(
      columns: Self.headings.enumerated().map { index, heading in
        TextTable.Column(heading, alignment: Self.numericColumns.contains(index) ? .right : .left)
      })
    for row in rows { table.append(row) }
    table.appendRule()
    table.append(totalsRow)
    return table.rendered
  }

  /// The headings of ``granularityTable``.
  package static let granularityHeadings = [
    "#", "turn", "changed block", "tokens before it", "its unchanged start", "block-granular",
    "token-granular", "server", "block-granular (16)", "token-granular (16)",
  ]

  /// One row per compared generation whose prompt changed a block the
  /// server held: the tokens before the changed block, its unchanged start,
  /// the reuse predicted by whole blocks and token by token (exact, and
  /// rounded down to blocks of 16 tokens as vLLM's cache would), and what
  /// the server reused.
  package var granularityRows: [[String]] {
    reports.compactMap { report in
      guard let divergence = report.divergence, let comparison = report.serverComparison,
        !interleavedGenerations.contains(report.generationIndex)
      else { return nil }
      let start = report.match.changedBlockStart?.tokenCount ?? 0
      let whole = report.match.sharedTokenCount.subtractingSaturated(start)
      return [
        String(report.generationIndex), "\(report.turnIndex).\(report.round)", "\(divergence.location)",
        String(divergence.tokenOffset), String(start), String(whole), String(report.match.sharedTokenCount),
        String(comparison.reportedTokenCount), String(whole / 16 * 16),
        String(report.match.sharedTokenCount / 16 * 16),
      ]
    }
  }

  /// ``granularityRows`` as a text table, empty when no block changed.
  package var granularityTable: String {
    let rows = granularityRows
    guard !rows.isEmpty else { return "" }
    var table = TextTable(
      columns: Self.granularityHeadings.enumerated().map { index, heading in
        TextTable.Column(heading, alignment: index == 1 || index == 2 ? .left : .right)
      })
    for row in rows { table.append(row) }
    return table.rendered
  }

  /// `+12`, `-3`, `0`: the server's figure minus the prediction.
  private func signed(_ difference: Int) -> String {
    (difference > 0 ? "+" : "") + String(difference)
  }

  /// Whether the check meets its goal: the summed prediction within
  /// `tolerance` (a share) of the server's, and every generation that differs by
  /// more than the comparison's tolerance explained by a cause.
  package func meetsGoal(within tolerance: Double = 0.05) -> Bool {
    guard let error = summary.predictionError, abs(error) <= tolerance else { return false }
    return unexplainedGenerations.isEmpty
  }

  /// Generations whose prediction differs from the server's by more than the
  /// tolerance for a reason the check cannot name: the server reused less
  /// although no other request ran in between and nothing expired, or reused
  /// more of a changed block than its common token prefix with the cached one
  /// (the check counts with the server's tokenizer, so that is a miss).
  package var unexplainedGenerations: [Int] {
    reports.compactMap { report in
      guard let comparison = report.serverComparison else { return nil }
      switch comparison.cause {
      case .agrees, .countingDifference, .expired, .severalPrefixes: return nil
      case .cacheCleared, .shorterPrefix, .sharedBlockStart:
        return interleavedGenerations.contains(report.generationIndex) ? nil : report.generationIndex
      }
    }
  }
}
