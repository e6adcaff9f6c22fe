import Foundation
import ModelSession

/// A record of a generation that sent `sent` with `tools` and produced `output`: dated at
/// 1970, no usage, completed; its instructions are the first entry of `sent` when that is instructions.
public func record(
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
