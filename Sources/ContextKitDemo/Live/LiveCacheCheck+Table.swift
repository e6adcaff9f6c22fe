import CacheAnalysis
import CacheReport
import ModelSession

extension LiveCacheCheck.Result {
  /// One row per generation: the cause of the prediction, the predicted
  /// prompt and reuse, the server's, the difference and its cause; then the
  /// totals over the generations the server reported.
  package var table: String {
    var table = TextTable(columns: [
      .init("#", alignment: .right), .init("turn"), .init("prompt (predicted)", alignment: .right),
      .init("reused (predicted)", alignment: .right), .init("prompt (server)", alignment: .right),
      .init("reused (server)", alignment: .right), .init("difference", alignment: .right),
      .init("why they differ"), .init("prediction's cause"),
    ])
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
      table.append([
        String(report.generationIndex), "\(report.turnIndex).\(report.round)",
        String(report.promptTokenCount),
        String(report.reusedTokenCount), report.serverUsage.map { String($0.totalTokenCount) } ?? "",
        report.serverUsage?.cachedTokenCount.map(String.init) ?? "?",
        comparison.map { signed($0.difference) } ?? "", why,
        report.cause.groupingKey,
      ])
    }
    table.appendRule()
    let summary = summary
    table.append([
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
    ])
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
  /// although no other request ran in between and nothing expired.
  package var unexplainedGenerations: [Int] {
    reports.compactMap { report in
      guard let comparison = report.serverComparison else { return nil }
      switch comparison.cause {
      case .agrees, .countingDifference, .expired, .sharedBlockStart, .severalPrefixes: return nil
      case .cacheCleared, .shorterPrefix:
        return interleavedGenerations.contains(report.generationIndex) ? nil : report.generationIndex
      }
    }
  }
}
