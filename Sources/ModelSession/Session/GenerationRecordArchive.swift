import Foundation

/// A compact, line-based file form of a conversation's generation records,
/// whose size grows linearly with the conversation: each transcript entry is
/// written once, and each generation lists only the keys of the entries it
/// holds, beside its options, stages, notes, usage and outcome.
///
/// The form is JSON Lines: a header line, then in order `{"entry": …}` lines
/// (an entry the first time it appears, numbered from 0 in the order written)
/// and `{"generation": …}` lines (one per record, after the entries it refers
/// to). A generation's transcripts are lists of entry numbers, written as runs
/// `[first, count]`, so an append-only history costs a few numbers per
/// generation. Entries are matched by id and content: an entry that comes
/// back with its id but another content (the instructions entry changes when
/// an instructions skill switches) is written again, as a new number.
///
/// ```swift
/// let data = try GenerationRecordArchive.encode(records)
/// try data.write(to: url)
/// let again = try GenerationRecordArchive.decode(try Data(contentsOf: url), name: url.path)
/// ```
///
/// ``decode(_:name:)`` also reads the older form, a JSON array of records.
public enum GenerationRecordArchive {
  /// The header's `format` value.
  public static let formatName = "contextkit.generation-records"
  /// The version this code writes.
  public static let version = 2

  /// A records file that cannot be read, with where.
  public struct ReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file (or the name given for the data).
    public var path: String
    /// The line, from 1 (1 for the older JSON array form).
    public var line: Int
    /// The offset of the line's first byte in the file.
    public var byteOffset: Int
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(path: String, line: Int, byteOffset: Int, reason: String) {
      self.path = path
      self.line = line
      self.byteOffset = byteOffset
      self.reason = reason
    }

    /// `records/run.jsonl:12 (byte 40960): …`.
    public var description: String { "\(path):\(line) (byte \(byteOffset)): \(reason)" }
  }

  /// The records in the archive form.
  public static func encode(_ records: [GenerationRecord]) throws -> Data {
    var writer = Writer()
    var data = try writer.line(Header(format: formatName, version: version))
    for record in records {
      data.append(try writer.append(record))
    }
    return data
  }

  /// Reads records in the archive form, or in the older form (a JSON array
  /// of records).
  ///
  /// - Parameters:
  ///   - data: the bytes of a records file.
  ///   - name: what to call the data in an error, such as its file's path.
  /// - Throws: ``ReadError`` with the line and byte offset of the first line
  ///   that does not read (a truncated file fails on its last line).
  public static func decode(_ data: Data, name: String = "records") throws(ReadError) -> [GenerationRecord] {
    let firstByte = data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    if firstByte == UInt8(ascii: "[") {
      do {
        return try JSONDecoder().decode([GenerationRecord].self, from: data)
      } catch {
        throw ReadError(path: name, line: 1, byteOffset: 0, reason: "not a JSON array of records: \(error)")
      }
    }
    var reader = Reader(name: name)
    var records: [GenerationRecord] = []
    var offset = 0
    var lineNumber = 0
    let bytes = [UInt8](data)
    while offset < bytes.count {
      lineNumber += 1
      let end = bytes[offset...].firstIndex(of: 0x0A) ?? bytes.count
      let line = Data(bytes[offset..<end])
      if end == bytes.count, !line.isEmpty {
        // The writer ends every line with a newline: a last line without one was cut short.
        throw ReadError(
          path: name, line: lineNumber, byteOffset: offset,
          reason: "the file ends inside this line (truncated?)")
      }
      if !line.allSatisfy({ [0x20, 0x09, 0x0D].contains($0) }) {
        do {
          if let record = try reader.read(line, isFirst: lineNumber == 1) { records.append(record) }
        } catch {
          throw ReadError(path: name, line: lineNumber, byteOffset: offset, reason: error.description)
        }
      }
      offset = end + 1
    }
    guard reader.sawHeader else {
      throw ReadError(path: name, line: 1, byteOffset: 0, reason: "empty: no \(formatName) header")
    }
    return records
  }

  /// Reads a records file, or every file of a folder in name order (hidden
  /// files left out), one conversation per file.
  ///
  /// - Returns: each file's path and records, in order.
  public static func read(
    contentsOf url: URL
  ) throws(ReadError) -> [(path: String, records: [GenerationRecord])] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
      throw ReadError(path: url.path, line: 0, byteOffset: 0, reason: "no such file or folder")
    }
    var files = [url]
    if isFolder.boolValue {
      do {
        files = try FileManager.default.contentsOfDirectory(atPath: url.path)
          .filter { !$0.hasPrefix(".") }.sorted()
          .map { url.appendingPathComponent($0) }
      } catch {
        throw ReadError(path: url.path, line: 0, byteOffset: 0, reason: "cannot list the folder: \(error)")
      }
      guard !files.isEmpty else {
        throw ReadError(path: url.path, line: 0, byteOffset: 0, reason: "the folder holds no records files")
      }
    }
    var result: [(path: String, records: [GenerationRecord])] = []
    for file in files {
      let data: Data
      do {
        data = try FileReader.read(file.path, limit: 1 << 30)
      } catch {
        throw ReadError(path: file.path, line: 0, byteOffset: 0, reason: error.explanation)
      }
      result.append((file.path, try decode(data, name: file.path)))
    }
    return result
  }
}

extension GenerationRecordArchive {
  struct Header: Codable {
    var format: String
    var version: Int
  }

  /// One stage: its name and the runs of its history's entry numbers.
  struct StoredStage: Codable {
    var name: String
    var entries: [[Int]]
  }

  /// A record with its transcripts replaced by entry keys.
  struct StoredGeneration: Codable {
    var requestID: UUID
    var turnIndex: Int
    var round: Int
    var date: Date
    var storedHistory: [[Int]]
    var stages: [StoredStage]
    var sentTranscript: [[Int]]
    var instructions: Int?
    var toolDefinitions: [Transcript.ToolDefinition]
    var generationOptions: GenerationOptions
    var contextOptions: ContextOptions
    var schema: GenerationSchema?
    var output: [[Int]]
    var usage: GenerationUsage
    var notes: [GenerationNote]
    var outcome: GenerationRecord.Outcome
  }

  struct StoredEntry: Codable {
    var number: Int
    var value: Transcript.Entry
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

  /// One line: exactly one of the three.
  struct Line: Codable {
    var format: String?
    var version: Int?
    var entry: StoredEntry?
    var generation: StoredGeneration?
  }

  struct Writer {
    /// Per entry id, the versions written and their numbers.
    private var written: [String: [(entry: Transcript.Entry, number: Int)]] = [:]
    private var count = 0
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

    /// The entry lines this record needs, then its generation line.
    mutating func append(_ record: GenerationRecord) throws -> Data {
      var data = Data()
      func keys(_ entries: [Transcript.Entry]) throws -> [[Int]] {
        GenerationRecordArchive.runs(try entries.map { entry in try number(for: entry, into: &data) })
      }
      let generation = StoredGeneration(
        requestID: record.requestID, turnIndex: record.turnIndex, round: record.round, date: record.date,
        storedHistory: try keys(record.storedHistory.entries),
        stages: try record.stages.map {
          StoredStage(name: $0.name, entries: try keys($0.transcript.entries))
        },
        sentTranscript: try keys(record.sentTranscript.entries),
        instructions: try record.instructions.map { try number(for: .instructions($0), into: &data) },
        toolDefinitions: record.toolDefinitions, generationOptions: record.generationOptions,
        contextOptions: record.contextOptions, schema: record.schema, output: try keys(record.output),
        usage: record.usage, notes: record.notes, outcome: record.outcome)
      data.append(try line(Line(generation: generation)))
      return data
    }

    private mutating func number(for entry: Transcript.Entry, into data: inout Data) throws -> Int {
      let versions = written[entry.id, default: []]
      if let known = versions.last(where: { $0.entry == entry }) { return known.number }
      let number = count
      count += 1
      data.append(try line(Line(entry: StoredEntry(number: number, value: entry))))
      written[entry.id, default: []].append((entry, number))
      return number
    }
  }

  /// A reason a line does not read.
  struct LineError: Error {
    var description: String
  }

  struct Reader {
    let name: String
    private(set) var sawHeader = false
    private var entries: [Transcript.Entry] = []
    private let decoder = JSONDecoder()

    init(name: String) {
      self.name = name
    }

    /// Reads one line: the header, an entry (kept for later lines), or a generation.
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
      if let stored = line.entry {
        guard stored.number == entries.count else {
          throw LineError(description: "entry number \(stored.number) where \(entries.count) comes next")
        }
        entries.append(stored.value)
        return nil
      }
      guard let stored = line.generation else {
        throw LineError(description: "neither an entry nor a generation")
      }
      func transcript(_ runs: [[Int]]) throws(LineError) -> [Transcript.Entry] {
        var result: [Transcript.Entry] = []
        for run in runs {
          guard run.count == 2, run[1] >= 0, run[0] >= 0, run[0] + run[1] <= entries.count else {
            throw LineError(
              description: "the generation refers to entries \(run), which no earlier line holds "
                + "(\(entries.count) entries so far)")
          }
          result.append(contentsOf: entries[run[0]..<(run[0] + run[1])])
        }
        return result
      }
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
      return GenerationRecord(
        requestID: stored.requestID, turnIndex: stored.turnIndex, round: stored.round, date: stored.date,
        storedHistory: Transcript(entries: try transcript(stored.storedHistory)), stages: stages,
        sentTranscript: Transcript(entries: try transcript(stored.sentTranscript)),
        instructions: instructions,
        toolDefinitions: stored.toolDefinitions, generationOptions: stored.generationOptions,
        contextOptions: stored.contextOptions, schema: stored.schema, output: try transcript(stored.output),
        usage: stored.usage, notes: stored.notes, outcome: stored.outcome)
    }
  }
}
