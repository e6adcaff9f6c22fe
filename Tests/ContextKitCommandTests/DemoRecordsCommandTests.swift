import Foundation
import TestSupport
import Testing

@testable import contextkit

@Suite("contextkit demo --records", .timeLimit(.minutes(10))) struct DemoRecordsCommandTests {
  @Test func `demo --records writes one file per run that analyze reads, and says so on the right stream`()
    async throws
  {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let folder = temporary.url
    let records = folder.appendingPathComponent("records").path
    let html = folder.appendingPathComponent("demo.html").path
    let text = await CommandRun.run(["demo", "--html", html, "--records", records])
    #expect(text.code == .success)
    // Three bundled conversations, each under seven strategies.
    let example = "\(records)/coding-agent.compactingHistory.jsonl"
    #expect(
      text.output.hasSuffix(
        "\nwrote \(html)\nwrote 21 record files to \(records)/ (try: contextkit analyze "
          + "\(example) --html report.html, or the whole folder)\n"))
    let files = try FileManager.default.contentsOfDirectory(atPath: records).sorted()
    #expect(files.count == 21)
    #expect(files.first == "coding-agent.baselineRollingWindow.jsonl")
    #expect(files.last == "support-chat.summarizeHistory.jsonl")
    let analyzed = await CommandRun.run(["analyze", "--json", example])
    #expect(analyzed.code == .success)
    #expect(CommandRun.keys(try analyzed.jsonObject()) == ["blockSize", "reports", "summary"])

    let jsonRecords = folder.appendingPathComponent("json-records").path
    let json = await CommandRun.run(["demo", "--json", "--html", html, "--records", jsonRecords])
    #expect(json.code == .success)
    let object = try json.jsonObject()
    #expect(object["records"] as? String == jsonRecords)
    #expect(object["html"] as? String == html)
    #expect(json.error.contains("wrote 21 record files to \(jsonRecords)/"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: jsonRecords).count == 21)
  }
}
