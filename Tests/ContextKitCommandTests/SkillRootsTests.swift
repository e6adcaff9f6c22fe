import Foundation
import TestSupport
import Testing

@testable import contextkit

/// `--project DIR`: the folders agents keep skills in for a project and a
/// user, project first, missing ones passed over, then any root given.
@Suite("contextkit skills --project", .timeLimit(.minutes(10))) struct SkillRootsTests {
  @Test func `list shows the project's skills before the user's, and skips the folders that do not exist`()
    async throws
  {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let folder = temporary.url
    let project = folder.appendingPathComponent("app")
    let home = folder.appendingPathComponent("home")
    try writeSkill(
      "review", under: project.appendingPathComponent(".claude/skills"),
      "---\nname: review\ndescription: The project's review.\n---\nBody.\n")
    try writeSkill(
      "review", under: home.appendingPathComponent(".agents/skills"),
      "---\nname: review\ndescription: The user's review.\n---\nBody.\n")
    try writeSkill(
      "Notes_Tidy", under: home.appendingPathComponent(".claude/skills"),
      "---\nname: Notes_Tidy\ndescription: Tidies notes.\n---\nBody.\n")
    let run = await CommandRun.run([
      "skills", "list", "--json", "--project", project.path, "--home", home.path,
    ])
    #expect(run.code == .success)
    let object = try run.jsonObject()
    let skills = try #require(object["skills"] as? [[String: Any]])
    #expect(skills.map { $0["name"] as? String } == ["Notes_Tidy", "review"])
    #expect(skills.map { $0["description"] as? String } == ["Tidies notes.", "The project's review."])
    let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
    // The user's review, hidden by the project's, and the name the rules refuse twice (capitals, "_"):
    // warnings, nothing on the missing project/.agents/skills.
    #expect(diagnostics.map { $0["severity"] as? String } == ["warning", "warning", "warning"])
    #expect(diagnostics.allSatisfy { ($0["path"] as? String)?.hasPrefix(home.path) == true })

    let missing = await CommandRun.run([
      "skills", "list", "--project", folder.appendingPathComponent("none").path,
    ])
    #expect(missing.code == .invalidInput)
    #expect(missing.error.contains("no such project folder"))
  }
}
