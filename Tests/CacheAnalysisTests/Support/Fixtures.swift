import CacheAnalysis
import Foundation
import HistoryCompression
import ModelSession
import TestSupport

/// The reports for records, with a model that counts a token a word and
/// 100 a tool definition (`WordTokenCounter`) and reuses in `blockSize` blocks; by whole blocks unless `granularity` says otherwise
/// (the token-granular cases are in `ChangedBlockStartTests`).
func reports(
  _ records: [GenerationRecord], blockSize: Int = 1, minimum: Int = 0, lookback: Int = 1,
  granularity: ReuseGranularity = .block
) async throws -> [CacheImpactReport] {
  var model = try PromptCacheModel(
    blockSize: blockSize, minimumCacheableTokens: minimum, lookback: lookback,
    tokenCounter: WordTokenCounter(toolDefinitionTokens: 100))
  model.granularity = granularity
  return try await CacheImpactAnalyzer.reports(for: records, model: model)
}
