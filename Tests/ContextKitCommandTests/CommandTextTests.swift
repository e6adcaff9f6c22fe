import Foundation
import TestSupport
import Testing

@testable import contextkit

/// The exact text of `contextkit --help`, the demo and analyze table headings, and
/// `skills validate --strict` stopping at the first error (docs/cli.md, docs/cache-report.md).
@Suite("contextkit texts", .timeLimit(.minutes(10))) struct CommandTextTests {
  @Test func `the top-level help lists every command and the exit statuses`() async {
    let run = await CommandRun.run(["--help"])
    #expect(run.code == .success)
    #expect(run.error.isEmpty)
    #expect(
      run.output.contains(
        """
        commands:
          skills       list, validate and show Agent Skills (SKILL.md folders)
          analyze      predict prompt-cache reuse for saved generation records, with causes
          demo         replay the bundled scenarios under each history strategy and compare prompt-cache reuse
          check-cache  compare predicted prompt-cache reuse with what a live server reports, per generation

        """))
    #expect(run.output.hasSuffix("\nExit status: 0 success, 1 invalid input, 2 wrong usage.\n"))
  }

  @Test func `demo's strategy table and analyze's single-file table have their documented headings`()
    async throws
  {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let folder = temporary.url
    let demo = await CommandRun.run(["demo", "--html", folder.appendingPathComponent("demo.html").path])
    #expect(demo.code == .success)
    let strategyHeadings = demo.output.split(separator: "\n").filter { $0.hasPrefix("strategy ") }
    #expect(!strategyHeadings.isEmpty)
    for heading in strategyHeadings {
      #expect(
        heading.split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) }
          .filter { !$0.isEmpty } == [
            "strategy", "hit % (16)", "hit % (128)", "re-processed", "x floor", "visible % of budget",
            "peak context", "turns over budget", "summarizer calls", "recoveries", "vs compactingHistory",
          ])
    }

    let recordsFolder = try TemporaryFolder(named: "ck-records")
    defer { recordsFolder.remove() }
    let small = try smallRecordsFile(in: recordsFolder)
    let analyze = await CommandRun.run(["analyze", small.path])
    #expect(analyze.code == .success)
    // The first line is the headings (the `#` column is right-aligned, so it starts with spaces).
    let heading = try #require(analyze.output.split(separator: "\n").first)
    #expect(
      heading.split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty } == [
          "#", "turn", "prompt", "reused", "re-processed", "hit %", "diverged at", "cause", "server cached",
          "server vs predicted",
        ])
  }

  @Test func `validate --strict stops at the first error, prints it and the counts, and exits 1`()
    async throws
  {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = temporary.url
    try writeSkill("a-broken", under: root, "---\nname: a-broken\n---\nBody.\n")
    try writeSkill("b-broken", under: root, "---\nname: b-broken\n---\nBody.\n")
    try writeSkill("c-fine", under: root, "---\nname: c-fine\ndescription: Fine.\ncolour: blue\n---\nBody.\n")
    let strict = await CommandRun.run(["skills", "validate", "--strict", root.path])
    #expect(strict.code == .invalidInput)
    let lines = strict.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 2)
    #expect(
      lines.first
        == "\(root.appendingPathComponent("a-broken/SKILL.md").path):1:1: error: the front matter has no description; add a line \"description: ...\""
    )
    #expect(lines.last == "0 valid skills, 1 error, 0 warnings")
  }
}
