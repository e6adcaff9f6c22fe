import CacheAnalysis
import Foundation
import HistoryCompression
import ModelSession
import TestSupport

/// Counts one token per word of text (words are separated by single spaces),
/// 5 per tool call and 100 per tool definition, with no framing: small
/// numbers a test can add up by hand.
struct WordTokenCounter: TokenCounter {
  func tokenCount(of segment: Transcript.Segment) -> Int {
    switch segment {
    case .text(let text): text.content.isEmpty ? 0 : text.content.utf8.reduce(1) { $1 == 32 ? $0 + 1 : $0 }
    case .structure(let structure): structure.content.jsonString.split(separator: ",").count
    case .attachment, .custom: 1
    }
  }

  func tokenCount(of entry: Transcript.Entry) -> Int {
    switch entry {
    case .toolCalls(let calls): 5 * calls.calls.count
    case .instructions(let instructions):
      instructions.segments.reduce(0) { $0 + tokenCount(of: $1) } + 100 * instructions.toolDefinitions.count
    default: entry.segments.reduce(0) { $0 + tokenCount(of: $1) }
    }
  }

  func tokenCount(of toolDefinition: Transcript.ToolDefinition) -> Int { 100 }

  func tokenCount(of request: LanguageModelExecutorGenerationRequest) -> Int {
    request.transcript.reduce(0) { $0 + tokenCount(of: $1) }
  }

  func tokenCounts(of entries: [Transcript.Entry]) -> [Int] {
    entries.map { tokenCount(of: $0) }
  }
}

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

/// The reports for records, with a model that counts words and reuses in
/// `blockSize` blocks; by whole blocks unless `granularity` says otherwise
/// (the token-granular cases are in `ChangedBlockStartTests`).
func reports(
  _ records: [GenerationRecord], blockSize: Int = 1, minimum: Int = 0, lookback: Int = 1,
  granularity: ReuseGranularity = .block
) async throws -> [CacheImpactReport] {
  var model = try PromptCacheModel(
    blockSize: blockSize, minimumCacheableTokens: minimum, lookback: lookback,
    tokenCounter: WordTokenCounter())
  model.granularity = granularity
  return try await CacheImpactAnalyzer.reports(for: records, model: model)
}
