import CacheReport
import Foundation

extension StrategyComparison {
  /// The column headings of the comparison table.
  package static let headings = [
    "strategy", "hit % (16)", "hit % (128)", "re-processed", "x floor", "visible % of budget", "peak context",
    "turns over budget", "summarizer calls", "recoveries", "vs compactingHistory",
  ]

  /// The columns holding numbers (right-aligned).
  package static let numericColumns = Set(1...9)

  /// One row per strategy.
  package var rows: [[String]] {
    results.map { result in
      [
        result.strategy.rawValue, CacheImpactTable.percent(result.hitRatio16),
        CacheImpactTable.percent(result.hitRatio128), String(result.reprocessedTokenCount),
        String(format: "%.2f", result.reprocessedPerFloorToken),
        CacheImpactTable.percent(result.visibleShareOfBudget), String(result.peakContextTokenCount),
        "\(result.turnsOverBudget)/\(result.turnCount)",
        String(result.summarizerCalls), String(result.contextOverflowRecoveryCount), distance(of: result),
      ]
    }
  }

  /// The comparison as a terminal table.
  package var table: String {
    var table = TextTable(
      columns: Self.headings.enumerated().map { index, heading in
        TextTable.Column(heading, alignment: Self.numericColumns.contains(index) ? .right : .left)
      })
    for row in rows { table.append(row) }
    return table.rendered
  }

  /// One line: whether `compactingHistory` met the goal.
  package var verdict: String {
    guard let goal = goalResult else { return "compactingHistory was not run." }
    return
      "goal (\(Self.goalText)): " + (meetsGoal ? "met" : "MISSED") + " — \(goal.turnsOverBudget) "
      + (goal.turnsOverBudget == 1 ? "turn" : "turns")
      + " over budget, \(CacheImpactTable.percent(goal.hitRatio16))% reused, "
      + String(format: "%.2f", goal.reprocessedPerFloorToken) + "x the floor, "
      + "\(CacheImpactTable.percent(goal.visibleShareOfBudget))% visible"
  }

  /// The table's rows and headings for a ``CacheReportPage``.
  package var pageTable: CacheReportPage.Block {
    .table(headings: Self.headings, rows: rows, numeric: Self.numericColumns)
  }
}
