import CacheAnalysis
import Foundation
import HistoryCompression
import ModelSession
import TestSupport

/// A record of a generation that sent `sent` with `tools` and produced `output`.
func record(
  sent: [Transcript.Entry], tools: [Transcript.ToolDefinition] = [], output: [Transcript.Entry] = [],
  stored: [Transcript.Entry]? = nil, stages: [GenerationRecord.Stage] = [], notes: [GenerationNote] = [],
  turn: Int = 0, round: Int = 0
) -> GenerationRecord {
  var instructions: Transcript.Instructions?
  if case .instructions(let entry) = sent.first { instructions = entry }
  return GenerationRecord(
    requestID: UUID(), turnIndex: turn, round: round, date: Date(timeIntervalSince1970: 0),
    storedHistory: Transcript(entries: stored ?? sent), stages: stages,
    sentTranscript: Transcript(entries: sent),
    instructions: instructions, toolDefinitions: tools, generationOptions: GenerationOptions(),
    contextOptions: ContextOptions(), schema: nil, output: output, usage: .zero, notes: notes,
    outcome: .completed)
}

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
