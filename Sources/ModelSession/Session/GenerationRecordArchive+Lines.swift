import Foundation

// The lines of a records file (`GenerationRecordArchive`), as written and read.

extension GenerationRecordArchive {
  struct Header: Codable {
    var format: String
    var version: Int
  }

  /// One line: the header (`format` and `version`) or exactly one of the others.
  struct Line: Codable {
    var format: String?
    var version: Int?
    var text: StoredText?
    var tool: StoredTool?
    var entry: StoredEntry?
    var generation: StoredGeneration?
  }

  /// An instructions text, written once and referred to by its number.
  struct StoredText: Codable {
    var number: Int
    var value: String
  }

  /// A tool definition, written once and referred to by its number.
  struct StoredTool: Codable {
    var number: Int
    var value: Transcript.ToolDefinition
  }

  /// An entry: in full (`value`), or an instructions entry whose texts and
  /// tools are numbers (`instructions`, from version 3).
  struct StoredEntry: Codable {
    var number: Int
    var value: Transcript.Entry?
    var instructions: StoredInstructions?
  }

  struct StoredInstructions: Codable {
    var id: String
    var segments: [StoredSegment]
    var tools: [Int]
  }

  /// A text segment as its id and text number (`id`, `text`); any other
  /// segment in full (`value`).
  struct StoredSegment: Codable {
    var id: String?
    var text: Int?
    var value: Transcript.Segment?
  }

  /// One stage: its name and the runs of its history's entry numbers.
  struct StoredStage: Codable {
    var name: String
    var entries: [[Int]]
  }

  /// A record with its transcripts replaced by runs of entry numbers and its
  /// tools by tool numbers (`tools`; version 2 has the definitions in full,
  /// `toolDefinitions`).
  struct StoredGeneration: Codable {
    var requestID: UUID
    /// Counts (0 … 2^53): a value outside says so at its key.
    var turnIndex: CodableCount
    var round: CodableCount
    var date: Date
    var storedHistory: [[Int]]
    var stages: [StoredStage]
    var sentTranscript: [[Int]]
    var instructions: Int?
    var tools: [Int]?
    var toolDefinitions: [Transcript.ToolDefinition]?
    var generationOptions: GenerationOptions
    var contextOptions: ContextOptions
    var schema: GenerationSchema?
    var output: [[Int]]
    var usage: GenerationUsage
    var notes: [GenerationNote]
    var outcome: GenerationRecord.Outcome
  }

  /// `[3, 4, 5, 9]` as runs `[[3, 3], [9, 1]]`.
  static func runs(_ numbers: [Int]) -> [[Int]] {
    var runs: [[Int]] = []
    for number in numbers {
      if let last = runs.last, last[0] + last[1] == number {
        runs[runs.count - 1][1] += 1
      } else {
        runs.append([number, 1])
      }
    }
    return runs
  }
}
