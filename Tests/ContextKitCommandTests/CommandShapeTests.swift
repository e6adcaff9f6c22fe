import Foundation
import TestSupport
import Testing

@testable import contextkit

@Suite("contextkit exit codes and JSON shapes", .timeLimit(.minutes(20))) struct CommandShapeTests {
  @Test func `help, version and an unknown command give their exit codes`() async {
    let command = ContextKitCommand(commands: [SkillsCommand()])
    #expect(await command.run(["--help"], console: .capturing()) == .success)
    #expect(await command.run(["--version"], console: .capturing()) == .success)
    #expect(await command.run(["frobnicate"], console: .capturing()) == .usage)
    #expect(await command.run(["skills", "bogus"], console: .capturing()) == .usage)
  }

  @Test func `no arguments is a usage error: the usage on standard error, exit 2`() async {
    let run = await CommandRun.run([])
    #expect(run.code == .usage)
    #expect(run.output.isEmpty)
    #expect(run.error.contains("usage: contextkit <command>"))
  }

  @Test func `--help and --version exit 0 on standard output`() async {
    let help = await CommandRun.run(["--help"])
    #expect(
      help.code == .success && help.output.contains("usage: contextkit <command>") && help.error.isEmpty)
    let version = await CommandRun.run(["--version"])
    #expect(version.code == .success)
    #expect(version.output == "contextkit \(ContextKitCommand.version)\n")
    let unknown = await CommandRun.run(["frobnicate"])
    #expect(unknown.code == .usage)
    #expect(unknown.error.contains("unknown command \"frobnicate\""))
  }

  @Test func `every subcommand answers --help with its usage`() async {
    for name in ["skills", "analyze", "demo"] {
      let run = await CommandRun.run([name, "--help"])
      #expect(run.code == .success)
      #expect(run.output.contains("usage: contextkit \(name)"), "\(name)")
    }
  }

  @Test func `analyze: the JSON shape, invalid input and usage errors`() async throws {
    let recordsFolder = try TemporaryFolder(named: "ck-records")
    defer { recordsFolder.remove() }
    let url = try smallRecordsFile(in: recordsFolder)
    let json = await CommandRun.run(["analyze", "--json", url.path])
    #expect(json.code == .success)
    let object = try json.jsonObject()
    #expect(CommandRun.keys(object) == ["blockSize", "reports", "summary"])
    #expect((object["reports"] as? [Any])?.count == 3)
    let corrupt = recordsFolder.url("corrupt.json")
    try Data("[{\"requestID\": 1".utf8).write(to: corrupt)
    let invalid = await CommandRun.run(["analyze", "--json", corrupt.path])
    #expect(invalid.code == .invalidInput)
    #expect(CommandRun.keys(try invalid.jsonObject()) == ["error"])
    #expect(!invalid.error.contains("usage:"))
    let usage = await CommandRun.run(["analyze", "--block-size", "x", url.path])
    #expect(usage.code == .usage)
    #expect(usage.error.contains("usage: contextkit analyze"))
  }

  @Test func `demo: the JSON shape, the diagnostics of skills that did not load, and usage errors`()
    async throws
  {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = temporary.url
    try writeSkill(
      "tidy-notes", under: root, "---\nname: tidy-notes\ndescription: Tidies notes.\n---\nBody.\n")
    try writeSkill("broken", under: root, "---\nname: Broken Skill\n---\nBody.\n")
    let html = root.appendingPathComponent("report/demo.html")
    let run = await CommandRun.run(["demo", "--json", "--skills", root.path, "--html", html.path])
    #expect(run.code == .success)
    #expect(run.error.contains("broken/SKILL.md"))
    let object = try run.jsonObject()
    #expect(CommandRun.keys(object) == ["all", "countsHalf", "diagnostics", "html", "scenarios", "skills"])
    #expect(object["skills"] as? [String] == ["tidy-notes"])
    #expect(CommandRun.keys(object["all"]) == ["conversations", "results"])
    #expect(FileManager.default.fileExists(atPath: html.path))
    let missing = await CommandRun.run(["demo", "--skills", root.appendingPathComponent("none").path])
    #expect(missing.code == .invalidInput)
    #expect(
      missing.error.hasSuffix("contextkit: no such folder: \(root.appendingPathComponent("none").path)\n"),
      "\(missing.error)")
    let usage = await CommandRun.run(["demo", "--model", "m"])
    #expect(usage.code == .usage)
    #expect(usage.error.contains("usage: contextkit demo"))
  }
}
