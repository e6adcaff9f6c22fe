import Foundation

/// A compact, line-based file form of a conversation's generation records,
/// whose size grows linearly with the conversation: each transcript entry,
/// tool definition and instructions text is written once, and each
/// generation lists only the numbers of what it holds, beside its options,
/// stages, notes, usage and outcome.
///
/// The form is JSON Lines: a header line, then in order
///
/// - `{"text": {"number": n, "value": "…"}}`: an instructions text, the first
///   time it appears;
/// - `{"tool": {"number": n, "value": {…}}}`: a tool definition (name,
///   description, parameters), the first time it appears;
/// - `{"entry": {"number": n, "value": {…}}}`: a transcript entry the first
///   time it appears, in its documented JSON form; an instructions entry is
///   written as `{"entry": {"number": n, "instructions": {"id", "segments",
///   "tools"}}}`, its text segments as `{"id", "text": n}` and its tools as
///   tool numbers;
/// - `{"generation": {…}}`: one per record, after everything it refers to;
///   its transcripts are lists of entry numbers written as runs
///   `[first, count]`, its tools a list of tool numbers.
///
/// Texts, tools and entries are each numbered from 0 in the order written.
/// Entries are matched by id and content: an entry that comes back with its
/// id but another content (the instructions entry changes when an
/// instructions skill switches, and its segments get new ids each time the
/// profile is evaluated) is written again, as a new number, but its texts
/// and tools are not.
///
/// ```swift
/// let data = try GenerationRecordArchive.encode(records)
/// try data.write(to: url)
/// let again = try GenerationRecordArchive.decode(try Data(contentsOf: url), name: url.path)
/// ```
///
/// ``decode(_:name:)`` also reads the older forms: version 2 (tool
/// definitions and instructions written in full with every generation and
/// every instructions entry) and a JSON array of records.
public enum GenerationRecordArchive {
  /// The header's `format` value.
  public static let formatName = "contextkit.generation-records"
  /// The version this code writes.
  public static let version = 3

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

  /// `turnIndex: -1 is not a whole number …` when a record's turn or round is not a count.
  static func countProblem(turnIndex: Int, round: Int) -> String? {
    for (name, value) in [("turnIndex", turnIndex), ("round", round)] where !CountRange.contains(value) {
      return "\(name): \(value) is not \(CountRange.requirement)"
    }
    return nil
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

  /// Reads records in the archive form (this version or an older one), or
  /// in the older form of a JSON array of records.
  ///
  /// - Parameters:
  ///   - data: the bytes of a records file.
  ///   - name: what to call the data in an error, such as its file's path.
  /// - Throws: ``ReadError`` with the line and byte offset of the first line
  ///   that does not read (a truncated file fails on its last line).
  public static func decode(_ data: Data, name: String = "records") throws(ReadError) -> [GenerationRecord] {
    let firstByte = data.first { !$0.isJSONWhitespace }
    if firstByte == UInt8(ascii: "[") {
      let records: [GenerationRecord]
      do {
        records = try JSONDecoder().decode([GenerationRecord].self, from: data)
      } catch let error as DecodingError {
        throw ReadError(
          path: name, line: 1, byteOffset: 0,
          reason: "not a JSON array of records: \(error.locatedDescription)")
      } catch {
        throw ReadError(path: name, line: 1, byteOffset: 0, reason: "not a JSON array of records: \(error)")
      }
      for (index, record) in records.enumerated() {
        if let problem = countProblem(turnIndex: record.turnIndex, round: record.round) {
          throw ReadError(path: name, line: 1, byteOffset: 0, reason: "[\(index)].\(problem)")
        }
      }
      return records
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
  /// files left out), one conversation per file; each file at most 1 GiB.
  /// A name that is not UTF-8 is read all the same, and shown with its
  /// invalid bytes as `\xFF`.
  ///
  /// - Returns: each file's path and records, in order.
  public static func read(
    contentsOf url: URL
  ) throws(ReadError) -> [(path: String, records: [GenerationRecord])] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
      throw ReadError(path: url.path, line: 0, byteOffset: 0, reason: "no such file or folder")
    }
    // Each file as its display path and the bytes that open it (a name need not be UTF-8).
    var files = [(path: url.path, fileSystemPath: Array(url.path.utf8CString))]
    if isFolder.boolValue {
      let entries: [FolderEntry]
      do {
        entries = try FolderEntry.list(url.path)
      } catch {
        throw ReadError(
          path: url.path, line: 0, byteOffset: 0, reason: "cannot list the folder: \(error.explanation)")
      }
      files = entries.filter { $0.nameBytes.first != UInt8(ascii: ".") }
        .sorted { $0.nameBytes.lexicographicallyPrecedes($1.nameBytes) }
        .map { (url.appendingPathComponent($0.displayName).path, $0.fileSystemPath(in: url.path)) }
      guard !files.isEmpty else {
        throw ReadError(path: url.path, line: 0, byteOffset: 0, reason: "the folder holds no records files")
      }
    }
    var result: [(path: String, records: [GenerationRecord])] = []
    for file in files {
      let data: Data
      do {
        data = try FileReader.read(fileSystemPath: file.fileSystemPath, named: file.path, limit: 1 << 30)
      } catch {
        throw ReadError(path: file.path, line: 0, byteOffset: 0, reason: error.explanation)
      }
      result.append((file.path, try decode(data, name: file.path)))
    }
    return result
  }
}
