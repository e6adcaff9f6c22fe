import AgentSkills
import Foundation
import TestSupport
import Testing

@Suite("Many roots", .timeLimit(.minutes(20)))
struct SkillsLibraryRootsTests {
  @Test func `project skills win over user skills, and every clash is reported once`() throws {
    let project = try SkillFixture()
    let user = try SkillFixture()
    let system = try SkillFixture()
    for (fixture, origin) in [(project, "project"), (user, "user"), (system, "system")] {
      try fixture.skill("reviewing-sql", frontMatter: "name: reviewing-sql\ndescription: The \(origin) one.")
    }
    try user.skill("user-only")
    try system.skill("user-only", frontMatter: "name: user-only\ndescription: Hidden by the user one.")
    let library = try SkillsLibrary(roots: [project.root, user.root, system.root])
    #expect(library.names == ["reviewing-sql", "user-only"])
    #expect(library.skill(named: "reviewing-sql")?.description == "The project one.")
    #expect(library.skill(named: "user-only")?.folder.path == user.url("user-only").path)
    let clashes = library.diagnostics.filter { $0.message.contains("is hidden by") }
    #expect(clashes.count == 3)
    #expect(clashes.allSatisfy { $0.severity == .warning })
    #expect(
      Set(clashes.map(\.path)) == [
        user.url("reviewing-sql/SKILL.md").path, system.url("reviewing-sql/SKILL.md").path,
        system.url("user-only/SKILL.md").path,
      ])
  }

  @Test func `two skills of one name under one root: the first path wins and the rule is named`() throws {
    let fixture = try SkillFixture()
    try fixture.skill("tone", in: "a-team", frontMatter: "name: tone\ndescription: First.")
    try fixture.skill("tone", in: "b-team", frontMatter: "name: tone\ndescription: Second.")
    let library = try SkillsLibrary(root: fixture.root)
    #expect(library.skill(named: "tone")?.description == "First.")
    #expect(
      library.diagnostics.map(\.message) == [
        "skill \"tone\" is hidden by the skill of the same name in \(fixture.url("a-team/tone").path) "
          + "(under one root, the first folder in path order wins); rename one of them to use both"
      ])
  }

  @Test func `the folder limit applies to each root on its own`() throws {
    let first = try SkillFixture()
    let second = try SkillFixture()
    for index in 0..<4 {
      try first.skill("first-\(index)")
      try second.skill("second-\(index)")
    }
    // Each root has 5 folders (itself and 4 skills): a limit of 5 admits both, 4 does not.
    let roomy = try SkillsLibrary(
      roots: [first.root, second.root], limits: SkillLoaderLimits(maximumFolders: 5))
    #expect(roomy.loadedSkills.count == 8)
    #expect(roomy.diagnostics.isEmpty)
    let tight = try SkillsLibrary(
      roots: [first.root, second.root], limits: SkillLoaderLimits(maximumFolders: 4))
    #expect(tight.loadedSkills.count == 6)
    #expect(tight.diagnostics.filter(\.isError).map(\.path) == [first.root.path, second.root.path])
  }

  @Test func `overlapping roots load a skill once`() throws {
    let fixture = try SkillFixture()
    try fixture.skill("inner", in: "nested")
    let library = try SkillsLibrary(roots: [fixture.root, fixture.url("nested")])
    #expect(library.names == ["inner"])
    #expect(!library.diagnostics.contains { $0.message.contains("is hidden by") })
  }

  @Test func `10,000 skills in one root load with the default limits`() throws {
    let folder = try TemporaryFolder(named: "agentskills-10000")
    defer { folder.removeLargeTree() }
    let root = folder.url
    try SkillLibraryGenerator.generateLibrary(at: root, count: 10_000, bodyBytes: 256)
    let library = try SkillsLibrary(root: root, mode: .strict)
    #expect(library.loadedSkills.count == 10_000)
    #expect(library.diagnostics.isEmpty)
    #expect(library.names.first == "generated-skill-0")
    #expect(library.loadedSkills.allSatisfy { $0.resources.map(\.path) == ["references/guide.md"] })
  }
}
