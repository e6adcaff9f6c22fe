import Foundation
import TestSupport
import Testing

@testable import contextkit

/// The exit status and the distinctive output of `skills catalog`, `validate` and a missing root,
/// for warnings only and for errors (docs/cli.md: 0 success, 1 a skill or root is invalid).
@Suite("contextkit skills outcomes", .timeLimit(.minutes(10))) struct SkillsOutcomeTests {
  private static let tidyNotes =
    "---\nname: tidy-notes\ndescription: Tidies notes.\ncolour: blue\n---\nBody.\n"

  @Test func `catalog exits 0 on warnings only, and 1 when a skill fails while still printing the catalog`()
    async throws
  {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = temporary.url
    // `colour` is an unknown key: a warning, and the skill still loads.
    try writeSkill("tidy-notes", under: root, Self.tidyNotes)
    let warned = await CommandRun.run(["skills", "catalog", root.path])
    #expect(warned.code == .success)
    #expect(warned.output.contains("Skill: tidy-notes [on demand]\nDescription: Tidies notes.\n"))
    #expect(warned.error.contains("tidy-notes/SKILL.md:4:1: warning: unknown front matter key \"colour\""))

    try writeSkill("zz-broken", under: root, "---\nname: zz-broken\n---\nBody.\n")
    let failed = await CommandRun.run(["skills", "catalog", root.path])
    #expect(failed.code == .invalidInput)
    #expect(failed.output.contains("Skill: tidy-notes [on demand]\nDescription: Tidies notes.\n"))
    #expect(failed.output.contains("\ntool activate_skill: "))
    #expect(failed.error.contains("zz-broken/SKILL.md:1:1: error: the front matter has no description"))
    let json = await CommandRun.run(["skills", "catalog", "--json", root.path])
    #expect(json.code == .invalidInput)
    let object = try json.jsonObject()
    #expect(object["skills"] as? [String] == ["tidy-notes"])
    let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.map { $0["severity"] as? String } == ["warning", "error"])
  }

  @Test func `validate ends with the counts of valid skills, errors and warnings, as text and as JSON`()
    async throws
  {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = temporary.url
    try writeSkill("tidy-notes", under: root, Self.tidyNotes)
    let warned = await CommandRun.run(["skills", "validate", root.path])
    #expect(warned.code == .success)
    #expect(warned.output.hasSuffix("\n1 valid skill, 0 errors, 1 warning\n"))

    try writeSkill("zz-broken", under: root, "---\nname: zz-broken\n---\nBody.\n")
    try writeSkill("aa-fine", under: root, "---\nname: aa-fine\ndescription: Fine.\n---\nBody.\n")
    let failed = await CommandRun.run(["skills", "validate", root.path])
    #expect(failed.code == .invalidInput)
    let lines = failed.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(lines.first?.contains("tidy-notes/SKILL.md:4:1: warning: ") == true)
    #expect(lines.dropFirst().first?.contains("zz-broken/SKILL.md:1:1: error: ") == true)
    #expect(lines.last == "2 valid skills, 1 error, 1 warning")
    let json = await CommandRun.run(["skills", "validate", "--json", root.path])
    #expect(json.code == .invalidInput)
    let object = try json.jsonObject()
    #expect(object["skills"] as? Int == 2)
    #expect(object["errors"] as? Int == 1)
    #expect(object["warnings"] as? Int == 1)
    #expect((object["diagnostics"] as? [Any])?.count == 2)
  }

  @Test func `a root that is not a folder is an error: list and catalog exit 1 and name it`() async throws {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = temporary.url
    try writeSkill(
      "tidy-notes", under: root, "---\nname: tidy-notes\ndescription: Tidies notes.\n---\nBody.\n")
    let missing = root.appendingPathComponent("none").path
    let list = await CommandRun.run(["skills", "list", root.path, missing])
    #expect(list.code == .invalidInput)
    #expect(list.error.contains("\(missing): error: no such folder"))
    #expect(list.output.contains("\ntidy-notes  prompt"))
    let json = await CommandRun.run(["skills", "list", "--json", missing, root.path])
    #expect(json.code == .invalidInput)
    let diagnostics = try #require(try json.jsonObject()["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.map { $0["severity"] as? String } == ["error"])
    #expect(diagnostics.map { $0["path"] as? String } == [missing])
    let catalog = await CommandRun.run(["skills", "catalog", root.path, missing])
    #expect(catalog.code == .invalidInput)
    #expect(catalog.error.contains("\(missing): error: no such folder"))
  }

  @Test func `show exits 0 on warnings only, and 1 when a root or another skill is invalid`()
    async throws
  {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = temporary.url
    try writeSkill("tidy-notes", under: root, Self.tidyNotes)
    let warned = await CommandRun.run(["skills", "show", "tidy-notes", root.path])
    #expect(warned.code == .success)
    #expect(warned.output.hasPrefix("name: tidy-notes\ndescription: Tidies notes.\n"))
    #expect(warned.output.hasSuffix("\n---\nBody.\n\n"))
    #expect(warned.error.contains("tidy-notes/SKILL.md:4:1: warning: unknown front matter key \"colour\""))

    let missing = root.appendingPathComponent("none").path
    let noRoot = await CommandRun.run(["skills", "show", "tidy-notes", root.path, missing])
    #expect(noRoot.code == .invalidInput)
    #expect(noRoot.output.hasPrefix("name: tidy-notes\n"))
    #expect(noRoot.error.contains("\(missing): error: no such folder"))

    try writeSkill("zz-broken", under: root, "---\nname: zz-broken\n---\nBody.\n")
    let json = await CommandRun.run(["skills", "show", "--json", "tidy-notes", root.path])
    #expect(json.code == .invalidInput)
    #expect(try json.jsonObject()["name"] as? String == "tidy-notes")
    #expect(json.error.contains("zz-broken/SKILL.md:1:1: error: "))
  }

  @Test func `a usage error under --json prints no JSON, exits 2 and shows the usage`() async {
    for (name, arguments) in [
      ("skills", ["skills", "list", "--json", "--frobnicate"]),
      ("skills", ["skills", "catalog", "--json", "--budget", "-1"]),
      ("analyze", ["analyze", "--json"]),
      ("demo", ["demo", "--json", "--model", "m"]),
    ] {
      let run = await CommandRun.run(arguments)
      #expect(run.code == .usage, "\(arguments)")
      #expect(run.output.isEmpty, "\(arguments)")
      #expect(run.error.hasPrefix("contextkit: "), "\(arguments)")
      #expect(run.error.contains("\n\nusage: contextkit \(name)"), "\(arguments)")
    }
  }
}
