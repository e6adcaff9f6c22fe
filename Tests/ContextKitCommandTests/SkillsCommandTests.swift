import Foundation
import TestSupport
import Testing

@testable import contextkit

private let diagnosticKeys = ["column", "line", "message", "path", "severity"]

@Suite("contextkit skills", .timeLimit(.minutes(10))) struct SkillsCommandTests {
  let library = repository.appendingPathComponent("SkillsLibrary").path

  @Test func `list shows flavour and deactivation, as text and as JSON`() async throws {
    let text = await CommandRun.run(["skills", "list", library])
    #expect(text.code == .success)
    let header = try #require(text.output.split(separator: "\n").first)
    #expect(header.hasPrefix("NAME") && header.contains("FLAVOUR") && header.contains("DEACTIVATABLE"))
    let json = await CommandRun.run(["skills", "list", "--json", library])
    #expect(json.code == .success)
    let object = try json.jsonObject()
    #expect(CommandRun.keys(object) == ["diagnostics", "skills"])
    let skills = try #require(object["skills"] as? [[String: Any]])
    #expect(!skills.isEmpty)
    #expect(
      CommandRun.keys(skills.first) == [
        "allowsDeactivation", "allowsModelInvocation", "description", "flavour", "folder", "name",
      ])
    #expect(Set(skills.compactMap { $0["flavour"] as? String }).isSubset(of: ["prompt", "instructions"]))
  }

  @Test func `several roots: the earlier wins, and a broken skill makes list exit 1 with sorted diagnostics`()
    async throws
  {
    let firstFolder = try TemporaryFolder(named: "ck-cli")
    let secondFolder = try TemporaryFolder(named: "ck-cli")
    defer {
      firstFolder.remove()
      secondFolder.remove()
    }
    let first = firstFolder.url
    let second = secondFolder.url
    try writeSkill(
      "tidy-notes", under: first, "---\nname: tidy-notes\ndescription: Tidies notes.\n---\nBody.\n")
    try writeSkill(
      "tidy-notes", under: second,
      "---\nname: tidy-notes\ndescription: Another.\nallows-deactivation: true\n---\nB.\n")
    try writeSkill("zz-broken", under: second, "---\nname: ZZ\n---\nBody.\n")
    try writeSkill("aa-broken", under: second, "no front matter\n")
    let run = await CommandRun.run(["skills", "list", "--json", first.path, second.path])
    #expect(run.code == .invalidInput)
    let object = try run.jsonObject()
    let skills = try #require(object["skills"] as? [[String: Any]])
    #expect(skills.map { $0["description"] as? String } == ["Tidies notes."])
    let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
    #expect(CommandRun.keys(diagnostics.first) == diagnosticKeys)
    let paths = diagnostics.compactMap { $0["path"] as? String }
    #expect(paths.first?.contains("aa-broken") == true)
    #expect(paths.last?.contains("zz-broken") == true)
    let text = await CommandRun.run(["skills", "list", first.path, second.path])
    #expect(text.code == .invalidInput)
    #expect(text.error.contains("aa-broken/SKILL.md"))
  }

  @Test func `list exits 0 when the diagnostics are only warnings`() async throws {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = temporary.url
    // An unknown key (`colour`) is a warning, not an error: the skill still loads.
    try writeSkill(
      "tidy-notes", under: root,
      "---\nname: tidy-notes\ndescription: Tidies notes.\ncolour: blue\n---\nBody.\n")
    let json = await CommandRun.run(["skills", "list", "--json", root.path])
    #expect(json.code == .success)
    let object = try json.jsonObject()
    let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.map { $0["severity"] as? String } == ["warning"])
    let text = await CommandRun.run(["skills", "list", root.path])
    #expect(text.code == .success)
  }

  @Test func `list and validate name a hidden folder holding a SKILL.md and say to pass it itself`()
    async throws
  {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = temporary.url
    let hidden = try writeSkill(
      ".claude", under: root, "---\nname: claude\ndescription: Helps.\n---\nBody.\n")
    let warning =
      "\(hidden.path): warning: this folder holds a SKILL.md, but its name starts with \".\" and hidden "
      + "folders are not searched for skills; to load it, pass the folder itself as a root"
    let list = await CommandRun.run(["skills", "list", root.path])
    #expect(list.code == .success)
    #expect(list.error.split(separator: "\n").map(String.init) == [warning])
    for arguments in [["skills", "validate", root.path], ["skills", "validate", "--strict", root.path]] {
      let validate = await CommandRun.run(arguments)
      #expect(validate.output.contains(warning), "\(arguments)")
    }
    let loaded = await CommandRun.run(["skills", "list", hidden.path])
    #expect(loaded.output.contains("claude"))
  }

  @Test func `validate takes a SKILL.md file, a skill folder or a root`() async throws {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = temporary.url
    let skill = try writeSkill(
      "tidy-notes", under: root,
      "---\nname: tidy-notes\ndescription: Tidies notes.\ncolour: blue\n---\nBody.\n")
    let file = skill.appendingPathComponent("SKILL.md").path
    #expect(await CommandRun.run(["skills", "validate", file]).code == .success)
    #expect(await CommandRun.run(["skills", "validate", skill.path]).code == .success)
    #expect(await CommandRun.run(["skills", "validate", root.path]).code == .success)
    let strict = await CommandRun.run(["skills", "validate", "--strict", "--json", file])
    #expect(strict.code == .invalidInput)
    let object = try strict.jsonObject()
    #expect(CommandRun.keys(object) == ["diagnostics", "errors", "skills", "warnings"])
    #expect(object["errors"] as? Int == 1)
    let other = root.appendingPathComponent("notes.txt")
    try Data("x".utf8).write(to: other)
    #expect(await CommandRun.run(["skills", "validate", other.path]).code == .invalidInput)
    #expect(await CommandRun.run(["skills", "validate", "/no/such/place"]).code == .invalidInput)
    #expect(await CommandRun.run(["skills", "validate", library, "--strict"]).code == .success)
  }

  @Test func `validate sorts diagnostics by file, line and column`() async throws {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = temporary.url
    try writeSkill(
      "b-skill", under: root, "---\nname: b-skill\ndescription: B.\nzeta: 1\nalpha: 2\n---\nBody.\n")
    try writeSkill("a-skill", under: root, "---\nname: a-skill\ndescription: A.\nzeta: 1\n---\nBody.\n")
    let run = await CommandRun.run(["skills", "validate", root.path])
    let lines = run.output.split(separator: "\n").dropLast().map(String.init)
    #expect(lines.count == 3)
    #expect(lines[0].contains("a-skill/SKILL.md:4"))
    #expect(lines[1].contains("b-skill/SKILL.md:4"))
    #expect(lines[2].contains("b-skill/SKILL.md:5"))
  }

  @Test func `show prints one skill, as text and as JSON; an unknown name is invalid input`() async throws {
    let list = try await CommandRun.run(["skills", "list", "--json", library]).jsonObject()
    let name = try #require((list["skills"] as? [[String: Any]])?.first?["name"] as? String)
    let text = await CommandRun.run(["skills", "show", name, library])
    #expect(text.code == .success)
    #expect(text.output.hasPrefix("name: \(name)\n"))
    let json = await CommandRun.run(["skills", "show", "--json", name, library])
    #expect(
      CommandRun.keys(try json.jsonObject())
        == [
          "allowsDeactivation", "allowsModelInvocation", "body", "description", "flavour", "folder", "links",
          "name", "resources", "sections",
        ])
    let unknown = await CommandRun.run(["skills", "show", "no-such-skill", library])
    #expect(unknown.code == .invalidInput)
    #expect(unknown.error.contains("no skill named \"no-such-skill\""))
    let unknownJSON = await CommandRun.run(["skills", "show", "--json", "no-such-skill", library])
    #expect(CommandRun.keys(try unknownJSON.jsonObject()) == ["error"])
    #expect(await CommandRun.run(["skills", "show"]).code == .usage)
  }

  @Test func `show's text gives each field, outline, link and resource on its own line, then the body`()
    async throws
  {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = temporary.url
    let body = "# Reviewing SQL\n\nRead [the guide](references/guide.md).\n\n## Joins\n\nCheck each join.\n"
    let folder = try writeSkill(
      "reviewing-sql", under: root,
      "---\nname: reviewing-sql\ndescription: Reviews SQL queries.\n---\n" + body)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("references"), withIntermediateDirectories: true)
    try Data("Use indexes.".utf8).write(to: folder.appendingPathComponent("references/guide.md"))
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("assets"), withIntermediateDirectories: true)
    try Data([0x89, 0x50, 0x00, 0xFF]).write(to: folder.appendingPathComponent("assets/logo.png"))
    let run = await CommandRun.run(["skills", "show", "reviewing-sql", root.path])
    #expect(run.code == .success)
    // Lines count from the top of SKILL.md: the front matter takes lines 1 to 4. The body is
    // printed as it is, then a line break.
    #expect(
      run.output == """
        name: reviewing-sql
        description: Reviews SQL queries.
        activation: prompt
        model invocation: yes (the model, the app, and the user with /reviewing-sql)
        folder: \(folder.path)
        sections:
          Reviewing SQL (line 5)
            Joins (line 9)
        links:
          references/guide.md (line 7)
        resources:
          assets/logo.png (4 bytes, binary)
          references/guide.md (12 bytes, text)
        ---
        \(body)

        """)
  }

  @Test func `catalog prints what the model sees, and exits 1 with the diagnostics when nothing loads`()
    async throws
  {
    let json = await CommandRun.run(["skills", "catalog", "--json", library])
    #expect(json.code == .success)
    let object = try json.jsonObject()
    #expect(
      CommandRun.keys(object) == ["budget", "diagnostics", "hiddenSkills", "instructions", "skills", "tools"])
    let tools = try #require(object["tools"] as? [[String: Any]])
    #expect(CommandRun.keys(tools.first) == ["description", "name", "parameters"])
    #expect((tools.first?["parameters"] as? [String: Any])?["type"] as? String == "object")
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = temporary.url
    try writeSkill("broken", under: root, "---\nname: Broken Skill\n---\nBody.\n")
    let empty = await CommandRun.run(["skills", "catalog", root.path])
    #expect(empty.code == .invalidInput)
    #expect(empty.output.isEmpty)
    #expect(empty.error.contains("broken/SKILL.md"))
    #expect(
      empty.error.hasSuffix("contextkit: no skill loaded from \(root.path); the catalog would be empty\n"),
      "\(empty.error)")
    let emptyJSON = await CommandRun.run(["skills", "catalog", "--json", root.path])
    #expect(emptyJSON.code == .invalidInput)
    let emptyObject = try emptyJSON.jsonObject()
    #expect((emptyObject["diagnostics"] as? [Any])?.isEmpty == false)
    #expect((emptyObject["skills"] as? [Any])?.isEmpty == true)
  }

  @Test func `usage errors exit 2 and print the usage; --help exits 0`() async {
    for arguments in [
      ["skills"], ["skills", "bogus"], ["skills", "list", "--frobnicate"], ["skills", "show"],
    ] {
      let run = await CommandRun.run(arguments)
      #expect(run.code == .usage, "\(arguments)")
      #expect(run.error.contains("usage: contextkit skills"), "\(arguments)")
    }
    for arguments in [["skills", "--help"], ["skills", "list", "--help"], ["skills", "catalog", "-h"]] {
      let run = await CommandRun.run(arguments)
      #expect(run.code == .success)
      #expect(run.output.contains("usage: contextkit skills"))
      #expect(run.error.isEmpty)
    }
  }
}
