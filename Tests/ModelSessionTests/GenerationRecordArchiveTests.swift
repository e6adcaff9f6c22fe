import Foundation
import ModelSession
import Synchronization
import TestSupport
import Testing

/// Records of a real session: `turns` prompts, a tool call every third turn,
/// and the instructions rewritten (same id, new text) from turn 5 on.
private func sessionRecords(turns: Int) async throws -> [GenerationRecord] {
  var steps: [ScriptStep] = []
  for turn in 0..<turns {
    if turn % 3 == 0 { steps.append(.toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#)) }
    steps.append(.text("Answer \(turn): " + String(repeating: "words ", count: 40)))
  }
  let rewritten = Flag()
  let profile = Profile {
    SwitchingInstructions(flag: rewritten)
    WeatherTool()
  }
  let session = LanguageModelSession(
    model: ScriptedLanguageModel(script: ModelScript(steps)), profile: profile)
  var iterator = session.generationRecords.makeAsyncIterator()
  var records: [GenerationRecord] = []
  for turn in 0..<turns {
    rewritten.isOn = turn >= 5
    _ = try await session.respond(to: "Question \(turn): " + String(repeating: "more ", count: 30))
    let latest = session.latestGenerationRecord?.requestID
    while records.last?.requestID != latest, let record = await iterator.next() { records.append(record) }
  }
  return records
}

private final class Flag: Sendable {
  private let value = Mutex(false)
  var isOn: Bool {
    get { value.withLock { $0 } }
    set { value.withLock { $0 = newValue } }
  }
}

private struct SwitchingInstructions: DynamicInstructions {
  let flag: Flag
  var body: ProfileContent {
    Instructions(flag.isOn ? "You are terse. Rules are on." : "You are terse.")
  }
}

/// Every number written in a records line, outside strings: where it is
/// and the key it belongs to (an array's numbers belong to the array's key).
private func numericFields(in line: [UInt8]) -> [(range: Range<Int>, key: String)] {
  var fields: [(range: Range<Int>, key: String)] = []
  var index = 0
  var lastString = ""
  var key = ""
  while index < line.count {
    let byte = line[index]
    if byte == UInt8(ascii: "\"") {
      var end = index + 1
      while end < line.count, line[end] != UInt8(ascii: "\"") {
        end += line[end] == UInt8(ascii: "\\") ? 2 : 1
      }
      lastString = String(decoding: line[(index + 1)..<min(end, line.count)], as: UTF8.self)
      index = end + 1
    } else if byte == UInt8(ascii: ":") {
      key = lastString
      index += 1
    } else if byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte) {
      var end = index + 1
      while end < line.count, "0123456789.eE+-".utf8.contains(line[end]) { end += 1 }
      fields.append((index..<end, key))
      index = end
    } else {
      index += 1
    }
  }
  return fields
}

@Suite(.timeLimit(.minutes(10))) struct GenerationRecordArchiveTests {
  @Suite("Generation record archive") struct RoundTrip {
    @Test func `records read back equal, instructions changed under the same id included`() async throws {
      let records = try await sessionRecords(turns: 8)
      let data = try GenerationRecordArchive.encode(records)
      let decoded = try GenerationRecordArchive.decode(data)
      #expect(decoded == records)
      // The instructions entry keeps its id while its text changes: each version is stored, each only once.
      let instructionsID = try #require(records.first?.sentTranscript.first?.id)
      let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
      let stored = lines.filter { $0.hasPrefix(#"{"entry""#) && $0.contains(#""id":"\#(instructionsID)""#) }
      // Both texts are written, each once; the entries refer to them by number.
      let texts = lines.filter { $0.hasPrefix(#"{"text""#) }
      #expect(texts.count == 2)
      #expect(texts.filter { $0.contains("Rules are on") }.count == 1)
      // The session builds the instructions entry anew for each generation: at most one stored per generation.
      #expect(stored.count <= records.count)
    }

    @Test func `each entry is stored once, so the size grows linearly`() async throws {
      let short = try GenerationRecordArchive.encode(try await sessionRecords(turns: 10)).count
      let long = try GenerationRecordArchive.encode(try await sessionRecords(turns: 40)).count
      let array = try JSONEncoder().encode(try await sessionRecords(turns: 40)).count
      // Four times the turns: about four times the bytes (a quadratic form would be about sixteen).
      #expect(Double(long) / Double(short) < 5)
      #expect(Double(array) / Double(long) > 5)
    }

    @Test func `a truncated file names its last line and the byte it starts at`() async throws {
      let data = try GenerationRecordArchive.encode(try await sessionRecords(turns: 4))
      let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
      let lastStart = data.count - 1 - lines[lines.count - 2].count
      let cut = data.prefix(data.count - 10)
      #expect(throws: GenerationRecordArchive.ReadError.self) { try GenerationRecordArchive.decode(cut) }
      do {
        _ = try GenerationRecordArchive.decode(cut, name: "run.jsonl")
      } catch {
        #expect(error.path == "run.jsonl")
        #expect(error.line == lines.count - 1)
        #expect(error.byteOffset == lastStart)
        #expect(error.reason.contains("truncated"))
      }
    }

    @Test func `a corrupt line and a dangling reference are located`() throws {
      let header = #"{"format":"contextkit.generation-records","version":2}"# + "\n"
      do {
        _ = try GenerationRecordArchive.decode(Data((header + "{not json\n").utf8), name: "bad")
        Issue.record("a corrupt line was read")
      } catch {
        #expect(error.line == 2 && error.byteOffset == header.utf8.count)
      }
      let dangling =
        header
        + #"{"generation":{"requestID":"00000000-0000-0000-0000-000000000000","turnIndex":0,"round":0,"date":0,"#
        + #""storedHistory":[[0,3]],"stages":[],"sentTranscript":[],"toolDefinitions":[],"#
        + #""generationOptions":{},"contextOptions":{"includeSchemaInPrompt":true},"output":[],"usage":{},"#
        + #""notes":[],"outcome":{"completed":{}}}}"#
        + "\n"
      do {
        _ = try GenerationRecordArchive.decode(Data(dangling.utf8), name: "bad")
        Issue.record("a dangling reference was read")
      } catch {
        #expect(error.line == 2 && error.reason.contains("entries [0, 3]"))
      }
    }

    @Test func `the older JSON array form still reads`() async throws {
      let records = try await sessionRecords(turns: 3)
      #expect(try GenerationRecordArchive.decode(try JSONEncoder().encode(records)) == records)
    }

    @Test func `a folder reads every file in name order`() async throws {
      let temporary = try TemporaryFolder(named: "archive")
      defer { temporary.remove() }
      let folder = temporary.url
      let first = try await sessionRecords(turns: 2)
      let second = try await sessionRecords(turns: 3)
      try GenerationRecordArchive.encode(second).write(to: folder.appendingPathComponent("b.jsonl"))
      try JSONEncoder().encode(first).write(to: folder.appendingPathComponent("a.json"))
      let read = try GenerationRecordArchive.read(contentsOf: folder)
      #expect(read.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["a.json", "b.jsonl"])
      #expect(read[0].records == first && read[1].records == second)
    }

    @Test func `a folder's hidden files are left out`() async throws {
      let temporary = try TemporaryFolder(named: "archive")
      defer { temporary.remove() }
      let folder = temporary.url
      let records = try await sessionRecords(turns: 2)
      try GenerationRecordArchive.encode(records).write(to: folder.appendingPathComponent("records.jsonl"))
      // What a file manager or an editor leaves beside them, not records.
      try Data([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31]).write(to: folder.appendingPathComponent(".DS_Store"))
      try Data("{\"partial".utf8).write(to: folder.appendingPathComponent(".records.jsonl.swp"))
      let read = try GenerationRecordArchive.read(contentsOf: folder)
      #expect(read.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["records.jsonl"])
      #expect(read.first?.records == records)
    }
  }

  @Suite("Generation record archive numbers") struct Numbers {
    @Test func `every numeric field fed boundary values reads as written or fails at its line, never traps`()
      async throws
    {
      var records = try await sessionRecords(turns: 4)
      for index in records.indices {
        records[index].usage = GenerationUsage(
          input: .init(totalTokenCount: 100 + index, cachedTokenCount: 40),
          output: .init(totalTokenCount: 7, reasoningTokenCount: 2))
      }
      let lines = String(decoding: try GenerationRecordArchive.encode(records), as: UTF8.self)
        .split(separator: "\n").map { Array($0.utf8) }
      let countKeys: Set = [
        "totalTokenCount", "cachedTokenCount", "reasoningTokenCount", "turnIndex", "round",
      ]
      var seen: Set<String> = []
      var tried = 0
      for (lineIndex, line) in lines.enumerated() {
        let kind = String(decoding: line.prefix(12), as: UTF8.self)
        for field in numericFields(in: line) where seen.insert("\(kind) \(field.key)").inserted {
          for (literal, accepted) in countBoundaryLiterals {
            var changed = lines
            changed[lineIndex].replaceSubrange(field.range, with: Array(literal.utf8))
            let data = Data(changed.map { $0 + [0x0A] }.joined())
            tried += 1
            do {
              let decoded = try GenerationRecordArchive.decode(data, name: "fuzzed")
              #expect(
                !countKeys.contains(field.key) || accepted != nil, "\(field.key) = \(literal) was accepted")
              for record in decoded {
                let usage = record.usage
                for count in [
                  usage.input.totalTokenCount, usage.input.cachedTokenCount, usage.output.totalTokenCount,
                  usage.output.reasoningTokenCount, record.turnIndex, record.round,
                ] {
                  #expect(CountRange.contains(count), "\(field.key) = \(literal) gave \(count)")
                }
              }
            } catch {
              #expect(error.line == lineIndex + 1, "\(field.key) = \(literal): \(error)")
              if countKeys.contains(field.key) {
                #expect(accepted == nil, "\(field.key) = \(literal) was refused: \(error)")
                #expect(error.reason.contains(field.key), "\(error.reason)")
              }
            }
          }
        }
      }
      // The header's version, texts, tools, entries, runs, dates and every usage count were among them.
      for key in [
        "version", "number", "sentTranscript", "date", "cachedTokenCount", "reasoningTokenCount", "round",
      ] {
        #expect(seen.contains { $0.hasSuffix(" \(key)") }, "no \(key) field was fed")
      }
      #expect(tried > 100)
    }

    @Test func `a negative version is refused at the header`() throws {
      let data = Data(#"{"format":"contextkit.generation-records","version":-5}"#.utf8 + [0x0A])
      let error = try #require(throws: GenerationRecordArchive.ReadError.self) {
        try GenerationRecordArchive.decode(data, name: "bad")
      }
      #expect(error.line == 1 && error.reason == "version -5 is not a version of this format (1 or more)")
    }
  }

  @Suite("Generation record archive folders") struct Folders {
    @Test func `a file whose name is not UTF-8 is read with the others and named with its byte escaped`()
      async throws
    {
      let temporary = try TemporaryFolder(named: "archive")
      defer { temporary.remove() }
      let folder = temporary.url
      let first = try await sessionRecords(turns: 2)
      let second = try await sessionRecords(turns: 3)
      try GenerationRecordArchive.encode(first).write(to: folder.appendingPathComponent("a.jsonl"))
      // `b\xFF.jsonl`: Foundation lists it under another name, which opens nothing.
      let data = try GenerationRecordArchive.encode(second)
      let path = Array(folder.path.utf8) + Array("/b".utf8) + [0xFF] + Array(".jsonl".utf8)
      let descriptor = open(path.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_EXCL, 0o600)
      try #require(descriptor >= 0)
      let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      close(descriptor)
      try #require(written == data.count)
      let read = try GenerationRecordArchive.read(contentsOf: folder)
      #expect(read.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["a.jsonl", "b\\xFF.jsonl"])
      #expect(read.count == 2 && read[0].records == first && read[1].records == second)
    }
  }
}
