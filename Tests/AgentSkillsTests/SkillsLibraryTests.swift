import AgentSkills
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct SkillsLibraryTests {
  @Test(.timeLimit(.minutes(10)))
  func `discovery loads every good skill sorted by name and reports the bad ones`() throws {
    let fixture = try SkillFixture()
    try fixture.skill("zeta", in: "team")
    try fixture.skill("alpha", in: "team/nested/deeper")
    try fixture.skill("Broken", in: "team", frontMatter: "name: Broken\ndescription: Bad name.")
    try fixture.skill("nodescription", in: "team", frontMatter: "name: nodescription")
    try fixture.skill("hidden", in: ".git")
    let library = try SkillsLibrary(root: fixture.root)
    #expect(library.names == ["Broken", "alpha", "zeta"])
    #expect(library.hasErrors)
    #expect(
      library.diagnostics.filter(\.isError).map(\.message) == [
        "the front matter has no description; add a line \"description: ...\""
      ])
    #expect(library.skill(named: "zeta")?.folder.lastPathComponent == "zeta")

    let error = #expect(throws: SkillLoadingError.self) {
      try SkillsLibrary(root: fixture.root, mode: .strict)
    }
    #expect(error?.diagnostic.message == "name \"Broken\" must be lowercase")
  }

  @Test(.timeLimit(.minutes(10))) func `earlier roots win a name clash and the clash is reported`() throws {
    let first = try SkillFixture()
    let second = try SkillFixture()
    try first.skill("shared", frontMatter: "name: shared\ndescription: From the first root.")
    try second.skill("shared", frontMatter: "name: shared\ndescription: From the second root.")
    try second.skill("only-second")
    let library = try SkillsLibrary(roots: [first.root, second.root])
    #expect(library.names == ["only-second", "shared"])
    #expect(library.skill(named: "shared")?.description == "From the first root.")
    let clash = try #require(library.diagnostics.first)
    #expect(clash.severity == .warning)
    #expect(clash.path.hasPrefix(second.root.path))
    #expect(
      clash.message
        == "skill \"shared\" is hidden by the skill of the same name in \(first.url("shared").path) "
        + "(root \(first.root.path) comes before \(second.root.path)); rename one of them to use both")
  }

  @Test(.timeLimit(.minutes(10))) func `a root that is itself a skill folder loads that skill`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("solo")
    #expect(try SkillsLibrary(root: folder).names == ["solo"])
  }

  @Test(.timeLimit(.minutes(10))) func `discovery stops at depth 6 and says so`() throws {
    let fixture = try SkillFixture()
    try fixture.skill("shallow", in: "1/2/3/4/5")
    try fixture.skill("deep", in: "1/2/3/4/5/6")
    let library = try SkillsLibrary(root: fixture.root)
    #expect(library.names == ["shallow"])
    #expect(library.diagnostics.map(\.severity) == [.warning])
    #expect(library.diagnostics.first?.message.contains("more than 6 levels") == true)
  }

  @Test(.timeLimit(.minutes(10))) func `discovery visits at most the folder limit`() throws {
    let fixture = try SkillFixture()
    for index in 0..<12 { try fixture.skill("skill-\(index)") }
    let library = try SkillsLibrary(root: fixture.root, limits: SkillLoaderLimits(maximumFolders: 5))
    #expect(library.loadedSkills.count == 4)
    #expect(library.diagnostics.filter(\.isError).count == 1)
    #expect(library.diagnostics.first?.message.hasPrefix("stopped after visiting 5 folders") == true)
  }

  @Test(.timeLimit(.minutes(10)))
  func `symlinked folders are followed inside the root and refused outside it`()
    throws
  {
    let fixture = try SkillFixture()
    let outside = try SkillFixture()
    try outside.skill("stranger")
    try fixture.skill("local", in: "real")
    try fixture.link("inside-link", to: fixture.url("real").path)
    try fixture.link("outside-link", to: outside.root.path)
    try fixture.link("loop", to: fixture.root.path)
    let library = try SkillsLibrary(root: fixture.root)
    #expect(library.names == ["local"])
    #expect(library.diagnostics.count == 1)
    #expect(
      library.diagnostics.first?.message.hasSuffix(
        "is a symbolic link that leaves the root; it is not followed") == true)
  }

  @Test(.timeLimit(.minutes(10))) func `a missing root is an error`() throws {
    let fixture = try SkillFixture()
    let library = try SkillsLibrary(root: fixture.url("nowhere"))
    #expect(library.loadedSkills.isEmpty)
    #expect(library.diagnostics.map(\.message) == ["no such folder"])
  }

  @Test(.timeLimit(.minutes(10))) func `a root without skills says so`() throws {
    let fixture = try SkillFixture()
    try fixture.write("notes\n", to: "docs/README.md")
    let library = try SkillsLibrary(root: fixture.root, mode: .strict)
    #expect(library.loadedSkills.isEmpty)
    #expect(library.diagnostics.map(\.severity) == [.warning])
    #expect(library.diagnostics.first?.message.hasPrefix("no skills here") == true)
  }

  @Test(.timeLimit(.minutes(10)))
  func `an unreadable folder and a name that is not UTF-8 are reported where they are`() throws {
    let fixture = try SkillFixture()
    try fixture.skill("good", in: "root")
    try fixture.write("x", to: "root/locked/inner/SKILL.md")
    let locked = fixture.url("root/locked").path
    #expect(chmod(locked, 0) == 0)
    defer { chmod(locked, 0o755) }
    // A folder named "caf\xE9" (Latin-1, not UTF-8).
    let bytes = (Array(fixture.url("root").path.utf8) + Array("/caf".utf8) + [0xE9, 0]).map {
      CChar(bitPattern: $0)
    }
    #expect(mkdir(bytes, 0o755) == 0)
    let library = try SkillsLibrary(root: fixture.url("root"))
    #expect(library.names == ["good"])
    let messages = library.diagnostics.map { "\($0.path): \($0.message)" }
    #expect(
      messages.contains(
        "\(fixture.url("root").path): the name \"caf\\xE9\" is not valid UTF-8; rename it (it is skipped)"))
    if geteuid() != 0 {  // root reads any folder
      #expect(
        messages.contains(
          "\(locked): this folder cannot be listed (Permission denied); skills in it are not found"))
    }
    #expect(throws: SkillLoadingError.self) { try SkillsLibrary(root: fixture.url("root"), mode: .strict) }
  }
}
