import CacheAnalysis
import Foundation
import ModelSession
import TestSupport
import Testing

@testable import contextkit

@Suite(.timeLimit(.minutes(10))) struct AnalyzeCommandTests {
  @Suite("contextkit analyze") struct Analysis {
    @Test func `the table's totals add up for a small saved file`() async throws {
      let recordsFolder = try TemporaryFolder(named: "ck-records")
      defer { recordsFolder.remove() }
      let url = try smallRecordsFile(in: recordsFolder)
      let records = try CacheImpactAnalyzer.records(contentsOf: url)
      let sixteen = try await AnalyzeCommand.Analysis(
        records: records, model: PromptCacheModel(blockSize: 16))
      #expect(sixteen.reports.map(\.promptTokenCount) == [38, 86, 56])
      #expect(sixteen.reports.map(\.reusedTokenCount) == [0, 64, 0])
      #expect(sixteen.summary.reprocessedTokenCount == 116)
      let totals = try #require(sixteen.text.split(separator: "\n").first { $0.hasPrefix("total") })
      let totalColumns: [String] = totals.split(separator: " ").prefix(7).map(String.init)
      #expect(totalColumns == ["total", "3", "gen.", "180", "64", "116", "35.6"])
      let exact = try await AnalyzeCommand.Analysis(records: records, model: PromptCacheModel(blockSize: 1))
      #expect(exact.summary.reusedTokenCount == 72 + 14)
      #expect(exact.reports[2].cause.kind == .storedHistoryChanged)
    }

    @Test func `a row names where the prompt diverged and why, and the totals count invalidated generations`()
      async throws
    {
      // Two turns after the first, each cut back to the instructions and its own prompt by a
      // rolling window (no stages recorded, so the note names the cause): the same cause twice.
      let instructions = Transcript.Entry.instructions(
        Transcript.Instructions(segments: [letters(40, "i")], toolDefinitions: []))
      let dropped = GenerationNote(
        source: "rollingWindow", kind: .historyRewritten, message: "(not read)", counts: [.entriesDropped: 2])
      let records = [
        record(
          sent: [instructions, .prompt(Transcript.Prompt(segments: [letters(80, "p")]))], output: [], turn: 0),
        record(
          sent: [instructions, .prompt(Transcript.Prompt(segments: [letters(80, "q")]))], output: [],
          notes: [dropped],
          turn: 1),
        record(
          sent: [instructions, .prompt(Transcript.Prompt(segments: [letters(80, "t")]))], output: [],
          notes: [dropped],
          turn: 2),
      ]
      let folder = try TemporaryFolder(named: "ck-records")
      defer { folder.remove() }
      let url = folder.url("records.json")
      try JSONEncoder().encode(records).write(to: url)
      let run = await CommandRun.run(["analyze", url.path])
      #expect(run.code == .success)
      let rows = run.output.split(separator: "\n").map { line in
        line.split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
      }
      // Each later turn's prompt (entry 1 of what was sent) differs from its first letter on.
      let rewritten = rows.filter { $0.contains("entry 1 (prompt)") }
      #expect(rewritten.count == 2, "\(run.output)")
      for row in rewritten {
        let place = try #require(row.firstIndex(of: "entry 1 (prompt)"))
        #expect(row.dropFirst(place + 1).first == "historyRewritten(rollingWindow): dropped 2 entries")
      }
      let totals = try #require(rows.first { $0.first == "total" })
      #expect(totals.contains("2 invalidations"), "\(totals)")
    }

    @Test func `the command writes an HTML page and rejects a bad block size`() async throws {
      let recordsFolder = try TemporaryFolder(named: "ck-records")
      defer { recordsFolder.remove() }
      let url = try smallRecordsFile(in: recordsFolder)
      let html = recordsFolder.url("report.html")
      let command = ContextKitCommand(commands: [AnalyzeCommand()])
      #expect(
        await command.run(["analyze", url.path, "--html", html.path], console: .capturing()) == .success)
      let page = try String(contentsOf: html, encoding: .utf8)
      #expect(page.contains("<svg"))
      #expect(await command.run(["analyze", url.path, "--block-size", "0"], console: .capturing()) == .usage)
      #expect(
        await command.run(["analyze", "/no/such/records.json"], console: .capturing()) == .invalidInput)
      #expect(await command.run(["analyze"], console: .capturing()) == .usage)
      // --html followed by a flag has no file to write: a usage error, and no file named --json.
      let console = Console.capturing()
      #expect(await command.run(["analyze", url.path, "--html", "--json"], console: console) == .usage)
      #expect(console.error.contains("--html needs a value"), "\(console.error)")
      #expect(!FileManager.default.fileExists(atPath: "--json"))
    }

    @Test func `an unknown option or a second path is wrong usage, and nothing is analyzed`() async throws {
      let recordsFolder = try TemporaryFolder(named: "ck-records")
      defer { recordsFolder.remove() }
      let url = try smallRecordsFile(in: recordsFolder)
      for (arguments, message) in [
        (["analyze", url.path, "--frobnicate"], "contextkit: unknown option --frobnicate"),
        (["analyze", url.path, url.path], "contextkit: unexpected argument \"\(url.path)\""),
        (["analyze", "--json", url.path, "--", "extra"], "contextkit: unexpected argument \"extra\""),
      ] {
        let run = await CommandRun.run(arguments)
        #expect(run.code == .usage, "\(arguments)")
        #expect(run.error.hasPrefix(message + "\n"), "\(run.error)")
        #expect(run.output.isEmpty, "\(arguments)")
      }
    }

    @Test func `--block-size is 16 by default, 1 is accepted, and 0 or less is refused with the reason`()
      async throws
    {
      let recordsFolder = try TemporaryFolder(named: "ck-records")
      defer { recordsFolder.remove() }
      let url = try smallRecordsFile(in: recordsFolder)
      let byDefault = await CommandRun.run(["analyze", "--json", url.path])
      #expect(byDefault.code == .success)
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(byDefault.output.utf8)) as? [String: Any])
      #expect(object["blockSize"] as? Int == 16)
      let exact = await CommandRun.run(["analyze", "--json", "--block-size", "1", url.path])
      #expect(exact.code == .success)
      let exactObject = try #require(
        try JSONSerialization.jsonObject(with: Data(exact.output.utf8)) as? [String: Any])
      #expect(exactObject["blockSize"] as? Int == 1)
      for (value, message) in [
        (
          "0", "contextkit: --block-size: PromptCacheModel: the block size is 0 tokens, it must be at least 1"
        ),
        (
          "-1",
          "contextkit: --block-size: PromptCacheModel: the block size is -1 tokens, it must be at least 1"
        ),
      ] {
        let refused = await CommandRun.run(["analyze", "--block-size", value, url.path])
        #expect(refused.code == .usage)
        #expect(refused.error.hasPrefix(message + "\n"), "\(refused.error)")
      }
    }

    @Test func `a folder is read file by file, and a truncated file is named with its line and byte`()
      async throws
    {
      let temporary = try TemporaryFolder(named: "ck-folder")
      defer { temporary.remove() }
      let folder = temporary.url
      let recordsFolder = try TemporaryFolder(named: "ck-records")
      defer { recordsFolder.remove() }
      let small = try smallRecordsFile(in: recordsFolder)
      let records = try CacheImpactAnalyzer.records(contentsOf: small)
      let data = try GenerationRecordArchive.encode(records)
      try data.write(to: folder.appendingPathComponent("a.jsonl"))
      try data.write(to: folder.appendingPathComponent("b.jsonl"))
      let whole = await CommandRun.run(["analyze", "--json", folder.path])
      #expect(whole.code == .success)
      let objects = try #require(
        try JSONSerialization.jsonObject(with: Data(whole.output.utf8)) as? [[String: Any]])
      #expect(
        objects.compactMap { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } } == [
          "a.jsonl", "b.jsonl",
        ])
      // b.jsonl cut 5 bytes into its last line (the third generation's).
      let lines = data.split(separator: 0x0A)
      let lastStart = data.count - lines[lines.count - 1].count - 1
      try data.prefix(lastStart + 5).write(to: folder.appendingPathComponent("b.jsonl"))
      let cut = await CommandRun.run(["analyze", folder.path])
      #expect(cut.code == .invalidInput)
      let expected =
        "\(folder.appendingPathComponent("b.jsonl").path): cannot read generation records: line \(lines.count) "
        + "(byte \(lastStart)): the file ends inside this line (truncated?)"
      #expect(cut.error.contains(expected))
    }
  }

  @Suite("contextkit analyze text output") struct TextOutput {
    @Test func `the table honours --block-size, and a folder of several files heads each with its path`()
      async throws
    {
      let recordsFolder = try TemporaryFolder(named: "ck-records")
      defer { recordsFolder.remove() }
      let small = try smallRecordsFile(in: recordsFolder)
      // Block size 1 is exact: 72 + 14 of the 180 prompt tokens are reused (47.8 %).
      let exact = await CommandRun.run(["analyze", "--block-size", "1", small.path])
      #expect(exact.code == .success)
      let totals = try #require(exact.output.split(separator: "\n").first { $0.hasPrefix("total") })
      let totalColumns: [String] = totals.split(separator: " ").prefix(7).map(String.init)
      #expect(totalColumns == ["total", "3", "gen.", "180", "86", "94", "47.8"])
      #expect(!exact.output.hasPrefix("=="))

      let temporary = try TemporaryFolder(named: "ck-cli")
      defer { temporary.remove() }
      let folder = temporary.url
      let data = try GenerationRecordArchive.encode(try CacheImpactAnalyzer.records(contentsOf: small))
      try data.write(to: folder.appendingPathComponent("a.jsonl"))
      try data.write(to: folder.appendingPathComponent("b.jsonl"))
      let both = await CommandRun.run(["analyze", folder.path])
      #expect(both.code == .success)
      let headings = both.output.split(separator: "\n").filter { $0.hasPrefix("== ") }
      #expect(
        headings.map { URL(fileURLWithPath: String($0.dropFirst(3))).lastPathComponent } == [
          "a.jsonl", "b.jsonl",
        ])
      #expect(both.output.hasPrefix("== "))
      #expect(both.output.split(separator: "\n").filter { $0.hasPrefix("total") }.count == 2)
    }
  }

  @Suite("contextkit analyze with numbers from outside") struct NumbersFromOutside {
    /// The small records file in the archive form, every generation's usage written by `usage`,
    /// as `numbers.jsonl` in `folder`.
    private func recordsFile(usage: String, in folder: TemporaryFolder) throws -> URL {
      let records = try JSONDecoder().decode(
        [GenerationRecord].self, from: Data(contentsOf: try smallRecordsFile(in: folder)))
      let placeholder = GenerationUsage(input: .init(totalTokenCount: 424_242, cachedTokenCount: 434_343))
      let archive = try GenerationRecordArchive.encode(
        records.map { record in
          var record = record
          record.usage = placeholder
          return record
        })
      let text = String(decoding: archive, as: UTF8.self).replacingOccurrences(
        of: #""usage":{"input":{"cachedTokenCount":434343,"totalTokenCount":424242},"#
          + #""output":{"reasoningTokenCount":0,"totalTokenCount":0}}"#,
        with: #""usage":\#(usage)"#)
      #expect(text.contains(usage))
      let url = folder.url("numbers.jsonl")
      try Data(text.utf8).write(to: url)
      return url
    }

    @Test func `each usage count at the boundaries is analyzed or refused with its line, never a trap`()
      throws
    {
      let values = [
        "0", "9007199254740992", "9007199254740993", "9223372036854775807", "-9223372036854775808", "-5",
        "1.5",
      ]
      let folder = try TemporaryFolder(named: "ck-numbers")
      defer { folder.remove() }
      for value in values {
        for (field, usage) in [
          ("totalTokenCount", #"{"input":{"totalTokenCount":\#(value),"cachedTokenCount":3}}"#),
          ("cachedTokenCount", #"{"input":{"totalTokenCount":100,"cachedTokenCount":\#(value)}}"#),
          ("output.totalTokenCount", #"{"output":{"totalTokenCount":\#(value),"reasoningTokenCount":0}}"#),
          ("reasoningTokenCount", #"{"output":{"totalTokenCount":1,"reasoningTokenCount":\#(value)}}"#),
        ] {
          let url = try recordsFile(usage: usage, in: folder)
          let ending = try contextKitEnding(["analyze", url.path])
          let isCount = value == "0" || value == "9007199254740992"
          #expect(!ending.signaled, "\(field) = \(value): \(ending)")
          #expect(ending.status == (isCount ? 0 : 1), "\(field) = \(value): \(ending)")
          if !isCount {
            #expect(ending.error.contains(": line 6 (byte "), "\(field) = \(value): \(ending)")
            #expect(
              ending.error.contains(
                "\(field.split(separator: ".").last ?? ""): \(value) is not a whole number from 0"),
              "\(field) = \(value): \(ending)")
          }
        }
      }
    }

    @Test func `the largest counts in every generation add up in the totals without a trap`() throws {
      let folder = try TemporaryFolder(named: "ck-numbers")
      defer { folder.remove() }
      let url = try recordsFile(
        usage: #"{"input":{"totalTokenCount":9007199254740992,"cachedTokenCount":9007199254740992},"#
          + #""output":{"totalTokenCount":9007199254740992,"reasoningTokenCount":9007199254740992}}"#,
        in: folder)
      let ending = try contextKitEnding(["analyze", "--json", url.path])
      #expect(ending == ContextKitEnding(status: 0, signaled: false, error: ""))
    }

    @Test func `a negative cached count is refused, not printed as -5/100 cached`() async throws {
      let folder = try TemporaryFolder(named: "ck-numbers")
      defer { folder.remove() }
      let url = try recordsFile(
        usage: #"{"input":{"totalTokenCount":100,"cachedTokenCount":-5}}"#, in: folder)
      let run = await CommandRun.run(["analyze", url.path])
      #expect(run.code == .invalidInput && !run.output.contains("-5/100"))
      #expect(
        run.error.contains(
          "usage.input.cachedTokenCount: -5 is not a whole number from 0 to 9007199254740992"))
    }

    @Test
    func `a records file that amplifies one entry is refused with its line, its peak memory near its size`()
      throws
    {
      // The report's attack: one 64 KiB prompt named by a generation 12,000 times (96 KB cost 346 MB).
      var text = #"{"format":"contextkit.generation-records","version":3}"# + "\n"
      text +=
        #"{"entry":{"number":0,"value":{"id":"p","options":{},"segments":[{"content":""#
        + String(repeating: "a", count: 64 << 10) + #"","id":"s","type":"text"}],"type":"prompt"}}}"# + "\n"
      let runs = Array(repeating: "[0,1]", count: 12_000).joined(separator: ",")
      text +=
        #"{"generation":{"requestID":"00000000-0000-0000-0000-000000000000","turnIndex":0,"round":0,"date":0,"#
        + #""storedHistory":[],"stages":[],"sentTranscript":[\#(runs)],"tools":[],"#
        + #""generationOptions":{},"contextOptions":{"includeSchemaInPrompt":true},"output":[],"usage":{},"#
        + #""notes":[],"outcome":{"completed":{}}}}"# + "\n"
      let folder = try TemporaryFolder(named: "ck-amplify")
      defer { folder.remove() }
      let url = folder.url("records.jsonl")
      try Data(text.utf8).write(to: url)
      let (ending, peak) = try peakMemoryOfContextKit(["analyze", url.path])
      #expect(ending.status == 1 && !ending.signaled, "\(ending)")
      #expect(ending.error.contains("line 3 (byte "), "\(ending)")
      #expect(ending.error.contains("stands for more than 67108864 bytes"), "\(ending)")
      // The whole process: the runtime and libraries (about 30 MB), the file read (0.2 MB); 346 MB before.
      #expect(peak < 64 << 20, "peak resident memory \(peak) bytes")
    }
  }
}
