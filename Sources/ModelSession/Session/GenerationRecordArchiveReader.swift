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
    /// What each text, tool and entry stands for, in bytes (see ``ExpansionBudget``).
    private var textSizes: [Int] = []
    private var toolSizes: [Int] = []
    /// `entrySizeSums[i]` is the size of entries `0..<i`: a run's size in one subtraction.
    private var entrySizeSums: [Int] = [0]
    private(set) var expansion = ExpansionBudget()

    init(name: String) {
      self.name = name
    }

    /// Reads one line: the header, a text, a tool or an entry (kept for later
    /// lines), or a generation.
    mutating func read(_ data: Data, isFirst: Bool) throws(LineError) -> GenerationRecord? {
      let line: Line
      do {
        line = try decoder.decode(Line.self, from: data)
      } catch let error as DecodingError {
        throw LineError(description: "not a records line: \(error.locatedDescription)")
      } catch {
        throw LineError(description: "not a records line: \(error)")
      }
      // A line stands for at least its own bytes, and its references for what they name.
      let lineSize = data.count
      if isFirst {
        guard line.format == GenerationRecordArchive.formatName, let version = line.version else {
          throw LineError(description: "no \(GenerationRecordArchive.formatName) header")
        }
        guard version >= 1 else {
          throw LineError(description: "version \(version) is not a version of this format (1 or more)")
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
        textSizes.append(lineSize)
        return nil
      }
      if let stored = line.tool {
        try Self.expect(stored.number, next: tools.count, of: "tool")
        tools.append(stored.value)
        toolSizes.append(lineSize)
        return nil
      }
      if let stored = line.entry {
        try Self.expect(stored.number, next: entries.count, of: "entry")
        let (entry, size) = try entry(stored, lineSize: lineSize)
        try expansion.charge(size, for: "the entry")
        entries.append(entry)
        entrySizeSums.append(entrySizeSums[entrySizeSums.count - 1] + size)
        return nil
      }
      guard let stored = line.generation else {
        throw LineError(description: "neither a text, a tool, an entry nor a generation")
      }
      var generation = expansion.generation()
      let record = try record(stored, budget: &generation)
      try expansion.charge(max(lineSize, generation.size), for: "the generation")
      return record
    }

    private static func expect(_ number: Int, next: Int, of kind: String) throws(LineError) {
      guard number == next else {
        throw LineError(description: "\(kind) number \(number) where \(next) comes next")
      }
    }

    /// The entry a line holds, and its size: the line's bytes, plus the
    /// bytes of the texts and tools an instructions entry names.
    private func entry(
      _ stored: StoredEntry, lineSize: Int
    ) throws(LineError) -> (entry: Transcript.Entry, size: Int) {
      switch (stored.value, stored.instructions) {
      case (let value?, nil):
        return (value, lineSize)
      case (nil, let instructions?):
        var segments: [Transcript.Segment] = []
        var budget = expansion.generation()
        try budget.charge(lineSize, for: "the instructions entry")
        for segment in instructions.segments {
          switch (segment.id, segment.text, segment.value) {
          case (let id?, let number?, nil):
            guard texts.indices.contains(number) else {
              throw LineError(
                description: "the entry refers to text \(number), which no earlier line holds "
                  + "(\(texts.count) texts so far)")
            }
            try budget.charge(textSizes[number], for: "the instructions entry")
            segments.append(.text(Transcript.TextSegment(id: id, content: texts[number])))
          case (nil, nil, let value?):
            segments.append(value)
          default:
            throw LineError(description: "a segment needs either an id and a text number, or a value")
          }
        }
        let definitions = try toolDefinitions(instructions.tools, budget: &budget)
        return (
          .instructions(
            Transcript.Instructions(id: instructions.id, segments: segments, toolDefinitions: definitions)),
          budget.size
        )
      default:
        throw LineError(description: "an entry needs either a value or instructions, not both")
      }
    }

    private func toolDefinitions(
      _ numbers: [Int], budget: inout ExpansionBudget.Generation
    ) throws(LineError) -> [Transcript.ToolDefinition] {
      var result: [Transcript.ToolDefinition] = []
      for number in numbers {
        guard tools.indices.contains(number) else {
          throw LineError(
            description: "refers to tool \(number), which no earlier line holds (\(tools.count) tools so far)"
          )
        }
        try budget.charge(toolSizes[number], for: "the tool list")
        result.append(tools[number])
      }
      return result
    }

    private func transcript(
      _ runs: [[Int]], budget: inout ExpansionBudget.Generation
    ) throws(LineError) -> [Transcript.Entry] {
      var result: [Transcript.Entry] = []
      for run in runs {
        guard run.count == 2, run[1] >= 0, run[0] >= 0, run[0] <= entries.count - run[1] else {
          throw LineError(
            description: "the generation refers to entries \(run), which no earlier line holds "
              + "(\(entries.count) entries so far)")
        }
        // Charged before anything is copied: a run costs what its entries stand for.
        try budget.charge(entrySizeSums[run[0] + run[1]] - entrySizeSums[run[0]], for: "the generation")
        result.append(contentsOf: entries[run[0]..<(run[0] + run[1])])
      }
      return result
    }

    private func record(
      _ stored: StoredGeneration, budget: inout ExpansionBudget.Generation
    ) throws(LineError) -> GenerationRecord {
      var instructions: Transcript.Instructions?
      if let number = stored.instructions {
        guard case .instructions(let value) = try transcript([[number, 1]], budget: &budget).first else {
          throw LineError(description: "entry \(number) is not an instructions entry")
        }
        instructions = value
      }
      var stages: [GenerationRecord.Stage] = []
      for stage in stored.stages {
        stages.append(
          .init(
            name: stage.name, transcript: Transcript(entries: try transcript(stage.entries, budget: &budget)))
        )
      }
      let definitions: [Transcript.ToolDefinition]
      switch (stored.tools, stored.toolDefinitions) {
      case (let numbers?, nil): definitions = try toolDefinitions(numbers, budget: &budget)
      case (nil, let inline?): definitions = inline
      default:
        throw LineError(description: "a generation needs either tools (numbers) or toolDefinitions, not both")
      }
      return GenerationRecord(
        requestID: stored.requestID, turnIndex: stored.turnIndex.value, round: stored.round.value,
        date: stored.date,
        storedHistory: Transcript(entries: try transcript(stored.storedHistory, budget: &budget)),
        stages: stages,
        sentTranscript: Transcript(entries: try transcript(stored.sentTranscript, budget: &budget)),
        instructions: instructions, toolDefinitions: definitions, generationOptions: stored.generationOptions,
        contextOptions: stored.contextOptions, schema: stored.schema,
        output: try transcript(stored.output, budget: &budget),
        usage: stored.usage, notes: stored.notes, outcome: stored.outcome)
    }
  }
}
