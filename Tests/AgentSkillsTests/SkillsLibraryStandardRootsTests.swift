import AgentSkills
import Foundation
import TestSupport
import Testing

/// The folders agents keep skills in, for a project and a user: project
/// before user before app, missing folders passed over in silence, and a
/// name clash reported on the skill it hides.
@Suite("Skills library standard roots", .timeLimit(.minutes(10)))
struct SkillsLibraryStandardRootsTests {
  @Test func `the roots are the project's, then the user's, then the app's, in this order`() {
    let project = URL(fileURLWithPath: "/work/app", isDirectory: true)
    let home = URL(fileURLWithPath: "/home/ada", isDirectory: true)
    let app = URL(fileURLWithPath: "/opt/app/Skills", isDirectory: true)
    #expect(
      SkillsLibrary.standardRoots(project: project, home: home, app: [app]).map(\.path) == [
        "/work/app/.agents/skills", "/work/app/.claude/skills", "/home/ada/.agents/skills",
        "/home/ada/.claude/skills", "/opt/app/Skills",
      ])
    #expect(SkillsLibrary.standardRoots(project: nil, home: home).map(\.path).count == 2)
  }

  @Test func `missing folders are skipped silently, and the project's skill hides the user's`() throws {
    let fixture = try SkillFixture()
    try fixture.skill("review", in: "project/.claude/skills")
    try fixture.skill("deploy", in: "project/.claude/skills")
    try fixture.skill(
      "review", in: "home/.agents/skills", frontMatter: "name: review\ndescription: The user's.")
    try fixture.skill("notes", in: "home/.claude/skills")
    try fixture.skill("bundled", in: "app")
    let library = try SkillsLibrary(
      project: fixture.url("project"), home: fixture.url("home"), app: [fixture.url("app")])
    #expect(library.names == ["bundled", "deploy", "notes", "review"])
    #expect(library.skill(named: "review")?.folder.path == fixture.url("project/.claude/skills/review").path)
    // One diagnostic: the user's review, hidden by the project's. The missing
    // project/.agents/skills says nothing.
    #expect(library.diagnostics.map(\.severity) == [.warning])
    #expect(library.diagnostics.map(\.path) == [fixture.url("home/.agents/skills/review/SKILL.md").path])
    #expect(library.missingRoots == .skipped)

    let named = try SkillsLibrary(roots: [fixture.url("project/.agents/skills")])
    #expect(named.diagnostics.map(\.severity) == [.error])
  }

  @Test func `a reload sees a root that appeared since`() throws {
    let fixture = try SkillFixture()
    try FileManager.default.createDirectory(at: fixture.url("project"), withIntermediateDirectories: true)
    var library = try SkillsLibrary(project: fixture.url("project"), home: nil)
    #expect(library.names.isEmpty)
    #expect(library.diagnostics.isEmpty)
    try fixture.skill("review", in: "project/.agents/skills")
    #expect(try library.reload() == SkillsLibraryChanges(added: ["review"]))
  }
}
