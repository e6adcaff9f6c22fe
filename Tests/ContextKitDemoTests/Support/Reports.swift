import CacheAnalysis
import Foundation

@testable import CacheReport

/// A report with the given counts and cause.
func report(
  _ index: Int, prompt: Int, reused: Int, cause: CacheImpactCause = .appendOnly
) -> CacheImpactReport {
  CacheImpactReport(
    requestID: UUID(), generationIndex: index, turnIndex: index, round: 0, promptTokenCount: prompt,
    match: PrefixMatch(
      sharedBlockCount: 1, sharedTokenCount: reused, reusedTokenCount: reused, sourceDistance: 1),
    divergence: cause.isInvalidation
      ? CacheImpactReport.Divergence(
        blockIndex: 1, location: .entry(index: 1, kind: "prompt"), tokenOffset: reused)
      : nil,
    cause: cause, serverUsage: nil)
}

/// `report` with the server's figures: it counted `prompt` tokens and took `cached` from its
/// cache, against the predicted reuse of `report`, for the reason `cause`.
func reported(
  _ report: CacheImpactReport, prompt: Int, cached: Int, cause: ServerReuseComparison.Cause
) -> CacheImpactReport {
  var report = report
  report.serverUsage = CacheImpactReport.ServerUsage(totalTokenCount: prompt, cachedTokenCount: cached)
  report.serverComparison = ServerReuseComparison(
    predictedTokenCount: report.reusedTokenCount, reportedTokenCount: cached,
    predictedPromptTokenCount: report.promptTokenCount, reportedPromptTokenCount: prompt, tolerance: 5,
    cause: cause)
  return report
}
