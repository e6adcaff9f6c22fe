import Foundation

extension GenerationRecordArchive {
  /// A reason a line does not read.
  struct LineError: Error {
    var description: String
  }

  /// Reads the lines of a records file in order, keeping the texts, tools and
  /// entries that later lines refer to.
  struct Reader {
    let name: String
    private(set) var sawHeader = false
    private var entries: [Transcript.Entry] = []
    private var texts: [String] = []
    private var tools: [Transcript.ToolDefinition] = []
    private let decoder = JSONDecoder()

    init(name: String) {
      self.name = name
    }

    /// Reads one line: the header, a text, a tool or an entry (kept for later
    /// lines), or a generation.
    mutating func read(_ data: Data, isFirst: Bool) throws(LineError) -> GenerationRecord? {
      let line: Line
      do {
        line = try decoder.decode(Line.self, from: data)
      } catch {
        throw LineError(description: "not a records line: \(error)")
      }
      if isFirst {
        guard line.format == GenerationRecordArchive.formatName, let version = line.version else {
          throw LineError(description: "no \(GenerationRecordArchive.formatName) header")
        }
        guard version <= GenerationRecordArchive.version else {
          throw LineError(
            description: "version \(version) is newer than this reader (\(GenerationRecordArchive.version))")
        }
        sawHeader = true
        return nil
      }
      if let stored = line.text {
        try Self.expect(stored.number, next: texts.count, of: "text")
        texts.append(stored.value)
        return nil
      }
      if let stored = line.tool {
        try Self.expect(stored.number, next: tools.count, of: "tool")
        tools.append(stored.value)
        return nil
      }
      if let stored = line.entry {
        try Self.expect(stored.number, next: entries.count, of: "entry")
        entries.append(try entry(stored))
        return nil
      }
      guard let stored = line.generation else {
        throw LineError(description: "neither a text, a tool, an entry nor a generation")
      }
      return try record(stored)
    }

    private static func expect(_ number: Int, next: Int, of kind: String) throws(LineError) {
      guard number == next else {
        throw LineError(description: "\(kind) number \(number) where \(next) comes next")
      }
    }

    private func entry(_ stored: StoredEntry) throws(LineError) -> Transcript.Entry {
      switch (stored.value, stored.instructions) {
      case (let value?, nil):
        return value
      case (nil, let instructions?):
        var segments: [Transcript.Segment] = []
        for segment in instructions.segments {
          switch (segment.id, segment.text, segment.value) {
          case (let id?, let number?, nil):
            guard texts.indices.contains(number) else {
              throw LineError(
                description: "the entry refers to text \(number), which no earlier line holds "
                  + "(\(texts.count) texts so far)")
            }
            segments.append(.text(Transcript.TextSegment(id: id, content: texts[number])))
          case (nil, nil, let value?):
            segments.append(value)
          default:
            throw LineError(description: "a segment needs either an id and a text number, or a value")
          }
        }
        return .instructions(
          Transcript.Instructions(
            id: instructions.id, segments: segments, toolDefinitions: try toolDefinitions(instructions.tools))
        )
      default:
        throw LineError(description: "an entry needs either a value or instructions, not both")
      }
    }

    private func toolDefinitions(_ numbers: [Int]) throws(LineError) -> [Transcript.ToolDefinition] {
      var result: [Transcript.ToolDefinition] = []
      for number in numbers {
        guard tools.indices.contains(number) else {
          throw LineError(
            description: "refers to tool \(number), which no earlier line holds (\(tools.count) tools so far)"
          )
        }
        result.append(tools[number])
      }
      return result
    }

    private func transcript(_ runs: [[Int]]) throws(LineError) -> [Transcript.Entry] {
      var result: [Transcript.Entry] = []
      for run in runs {
        guard run.count == 2, run[1] >= 0, run[0] >= 0, run[0] <= entries.count - run[1] else {
          throw LineError(
            description: "the generation refers to entries \(run), which no earlier line holds "
              + "(\(entries.count) entries so far)")
        }
        result.append(contentsOf: entries[run[0]..<(run[0] + run[1])])
      }
      return result
    }

    private func record(_ stored: StoredGeneration) throws(LineError) -> GenerationRecord {
      var instructions: Transcript.Instructions?
      if let number = stored.instructions {
        guard case .instructions(let value) = try transcript([[number, 1]]).first else {
          throw LineError(description: "entry \(number) is not an instructions entry")
        }
        instructions = value
      }
      var stages: [GenerationRecord.Stage] = []
      for stage in stored.stages {
        stages.append(.init(name: stage.name, transcript: Transcript(entries: try transcript(stage.entries))))
      }
      let definitions: [Transcript.ToolDefinition]
      switch (stored.tools, stored.toolDefinitions) {
      case (let numbers?, nil): definitions = try toolDefinitions(numbers)
      case (nil, let inline?): definitions = inline
      default:
        throw LineError(description: "a generation needs either tools (numbers) or toolDefinitions, not both")
      }
      return GenerationRecord(
        requestID: stored.requestID, turnIndex: stored.turnIndex, round: stored.round, date: stored.date,
        storedHistory: Transcript(entries: try transcript(stored.storedHistory)), stages: stages,
        sentTranscript: Transcript(entries: try transcript(stored.sentTranscript)),
        instructions: instructions, toolDefinitions: definitions, generationOptions: stored.generationOptions,
        contextOptions: stored.contextOptions, schema: stored.schema, output: try transcript(stored.output),
        usage: stored.usage, notes: stored.notes, outcome: stored.outcome)
    }
  }
}
