import Foundation

extension GenerationRecordArchive {
  /// Writes records as lines, each text, tool definition and entry the first
  /// time a record needs it, then the record's generation line.
  struct Writer {
    /// Per entry id, the versions written and their numbers.
    private var entries: [String: [(entry: Transcript.Entry, number: Int)]] = [:]
    private var entryCount = 0
    private var texts: [String: Int] = [:]
    private var tools: [Transcript.ToolDefinition: Int] = [:]
    private let encoder: JSONEncoder = {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      return encoder
    }()

    func line(_ value: some Encodable) throws -> Data {
      var data = try encoder.encode(value)
      data.append(0x0A)
      return data
    }

    /// The lines this record needs, then its generation line.
    mutating func append(_ record: GenerationRecord) throws -> Data {
      var data = Data()
      func keys(_ entries: [Transcript.Entry]) throws -> [[Int]] {
        GenerationRecordArchive.runs(try entries.map { entry in try number(for: entry, into: &data) })
      }
      let generation = StoredGeneration(
        requestID: record.requestID, turnIndex: CodableCount(record.turnIndex),
        round: CodableCount(record.round),
        date: record.date,
        storedHistory: try keys(record.storedHistory.entries),
        stages: try record.stages.map {
          StoredStage(name: $0.name, entries: try keys($0.transcript.entries))
        },
        sentTranscript: try keys(record.sentTranscript.entries),
        instructions: try record.instructions.map { try number(for: .instructions($0), into: &data) },
        tools: try record.toolDefinitions.map { try number(for: $0, into: &data) },
        generationOptions: record.generationOptions, contextOptions: record.contextOptions,
        schema: record.schema, output: try keys(record.output),
        usage: record.usage, notes: record.notes, outcome: record.outcome)
      data.append(try line(Line(generation: generation)))
      return data
    }

    private mutating func number(for entry: Transcript.Entry, into data: inout Data) throws -> Int {
      let versions = entries[entry.id, default: []]
      if let known = versions.last(where: { $0.entry == entry }) { return known.number }
      let number = entryCount
      if case .instructions(let instructions) = entry {
        let stored = StoredInstructions(
          id: instructions.id,
          segments: try instructions.segments.map { segment in
            guard case .text(let text) = segment else { return StoredSegment(value: segment) }
            return StoredSegment(id: text.id, text: try self.number(for: text.content, into: &data))
          },
          tools: try instructions.toolDefinitions.map { try self.number(for: $0, into: &data) })
        data.append(try line(Line(entry: StoredEntry(number: number, instructions: stored))))
      } else {
        data.append(try line(Line(entry: StoredEntry(number: number, value: entry))))
      }
      entryCount += 1
      entries[entry.id, default: []].append((entry, number))
      return number
    }

    private mutating func number(for text: String, into data: inout Data) throws -> Int {
      if let known = texts[text] { return known }
      let number = texts.count
      data.append(try line(Line(text: StoredText(number: number, value: text))))
      texts[text] = number
      return number
    }

    private mutating func number(
      for tool: Transcript.ToolDefinition, into data: inout Data
    ) throws -> Int {
      if let known = tools[tool] { return known }
      let number = tools.count
      data.append(try line(Line(tool: StoredTool(number: number, value: tool))))
      tools[tool] = number
      return number
    }
  }
}
