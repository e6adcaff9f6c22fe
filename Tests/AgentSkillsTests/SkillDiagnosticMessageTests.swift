import AgentSkills
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The diagnostic messages of `SkillLoader` and `SkillsLibrary` that name a
/// skipped file, folder or setting, each in the situation that triggers it,
/// with its severity.
@Suite("Skill diagnostic messages", .timeLimit(.minutes(10))) struct SkillDiagnosticMessageTests {
  /// The report's diagnostics as `severity: message`.
  func lines(_ diagnostics: [SkillDiagnostic]) -> [String] {
    diagnostics.map { "\($0.severity.rawValue): \($0.message)" }
  }

  @Test func `a file given as a skill folder is not a folder`() throws {
    let fixture = try SkillFixture()
    let file = try fixture.write("not a skill\n", to: "notes.txt")
    let report = inspect(file)
    #expect(report.skill == nil)
    #expect(lines(report.diagnostics) == ["error: not a folder; a skill is a folder holding SKILL.md"])
  }

  @Test func `a file given as the library root is not a folder`() throws {
    let fixture = try SkillFixture()
    let file = try fixture.write("not a skill\n", to: "notes.txt")
    let library = try SkillsLibrary(root: file)
    #expect(library.skills.isEmpty)
    #expect(lines(library.diagnostics) == ["error: not a folder"])
    #expect(library.diagnostics.first?.path == file.path)
  }

  @Test func `a resource and a link that lead out of the skill folder are named and left out`() throws {
    let fixture = try SkillFixture()
    try fixture.write("secret\n", to: "outside.md")
    let folder = try fixture.skill("linky", body: "# Use\n\nRead [the notes](references/out.md).\n")
    try fixture.link("linky/references/out.md", to: fixture.url("outside.md").path)
    let lenient = inspect(folder)
    #expect(lenient.skill?.resources.isEmpty == true)
    let expected = [
      "link \"references/out.md\" goes through a symbolic link that leaves the skill folder",
      "resource \"references/out.md\" is a symbolic link that leaves the skill folder (or leads nowhere); "
        + "it is not listed",
    ]
    #expect(lines(lenient.diagnostics).sorted() == expected.map { "warning: " + $0 })
    #expect(lines(inspect(folder, mode: .strict).diagnostics).sorted() == expected.map { "error: " + $0 })
  }

  @Test func `a link into a sibling folder whose name starts with the skill's leaves the skill folder`()
    throws
  {
    // linky-old/secret.md shares the prefix "…/linky" with the skill folder, but not "…/linky/".
    let fixture = try SkillFixture()
    try fixture.write("secret\n", to: "linky-old/secret.md")
    let folder = try fixture.skill("linky", body: "# Use\n\nRead [the notes](references/out.md).\n")
    try fixture.link("linky/references/out.md", to: "../../linky-old/secret.md")
    let lenient = inspect(folder)
    #expect(lenient.skill?.resources.isEmpty == true)
    #expect(
      lines(lenient.diagnostics).sorted() == [
        "warning: link \"references/out.md\" goes through a symbolic link that leaves the skill folder",
        "warning: resource \"references/out.md\" is a symbolic link that leaves the skill folder "
          + "(or leads nowhere); it is not listed",
      ])
  }

  @Test func `a file name in the skill folder that is not UTF-8 is named with its folder`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("odd-names")
    try fixture.write("# Notes\n", to: "odd-names/references/notes.md")
    // A file named "caf\xE9" (Latin-1, not UTF-8) under references/.
    let path = Array(fixture.url("odd-names/references").path.utf8) + Array("/caf".utf8) + [0xE9, 0]
    let descriptor = open(path.map { CChar(bitPattern: $0) }, O_CREAT | O_WRONLY, 0o644)
    #expect(descriptor >= 0)
    close(descriptor)
    let report = inspect(folder)
    #expect(report.skill?.resources.map(\.path) == ["references/notes.md"])
    let message = "the name \"references/caf\\xE9\" is not valid UTF-8; rename it (it is not a resource)"
    #expect(lines(report.diagnostics) == ["warning: " + message])
    #expect(errors(inspect(folder, mode: .strict)) == [message])
  }

  @Test func `folders below the depth limit are counted and the first is named`() throws {
    let fixture = try SkillFixture()
    try fixture.skill("deep-one", in: "a/b")
    try fixture.skill("deep-two", in: "a/c")
    let library = try SkillsLibrary(root: fixture.root, limits: SkillLoaderLimits(maximumDepth: 1))
    #expect(library.skills.isEmpty)
    let notSearched = library.diagnostics.filter { $0.message.contains("not searched") }
    #expect(
      lines(notSearched) == [
        "warning: 2 folder(s) are more than 1 level below the root and were not searched, starting with "
          + fixture.url("a/b").path
      ])
  }

  @Test func `a duplicate metadata key is questionable, naming the key`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(
      "twice", frontMatter: "name: twice\ndescription: Says it twice.\nmetadata:\n  owner: a\n  owner: b")
    #expect(errors(inspect(folder, mode: .strict)) == ["duplicate metadata key \"owner\"; keep one"])
  }

  @Test func `a metadata key that is a list is questionable`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(
      "listed-key", frontMatter: "name: listed-key\ndescription: Has a list key.\nmetadata:\n  [x, y]: two")
    #expect(
      errors(inspect(folder, mode: .strict)) == [
        "metadata keys must be strings, not a list; the entry is ignored"
      ])
  }

  @Test func `a metadata value YAML reads as a number is read as a string, with a warning`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(
      "versioned", frontMatter: "name: versioned\ndescription: Has a version.\nmetadata:\n  version: 1.0")
    let report = inspect(folder)
    #expect(report.skill?.frontMatter.metadata == ["version": "1.0"])
    #expect(
      lines(report.diagnostics) == [
        "warning: metadata.version is a number to YAML; it is read as the string \"1.0\" "
          + "(quote it to make that explicit)"
      ])
  }

  @Test func `allows-deactivation on a prompt skill is questionable`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(
      "prompty",
      frontMatter: "name: prompty\ndescription: A prompt skill.\nmetadata:\n  allows-deactivation: \"true\"")
    let message =
      "metadata.allows-deactivation only applies to skills with metadata.activation: instructions; "
      + "a prompt skill is never active, so remove it"
    #expect(lines(inspect(folder).diagnostics) == ["warning: " + message])
    #expect(errors(inspect(folder, mode: .strict)) == [message])
  }

  @Test func `a front matter key that is not a plain word is questionable`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(
      "listed", frontMatter: "name: listed\ndescription: Has a list key.\n[a, b]: c")
    #expect(errors(inspect(folder, mode: .strict)) == ["front matter keys must be plain words, not a list"])
  }

  @Test func `a diagnostic's place names only what it knows: the file, the line, the column`() {
    #expect(
      SkillDiagnostic(severity: .warning, path: "a/SKILL.md", message: "m").description
        == "a/SKILL.md: warning: m")
    #expect(
      SkillDiagnostic(severity: .error, path: "a/SKILL.md", line: 3, message: "m").description
        == "a/SKILL.md:3: error: m")
    #expect(
      SkillDiagnostic(severity: .error, path: "a/SKILL.md", line: 3, column: 4, message: "m").description
        == "a/SKILL.md:3:4: error: m")
  }

  @Test func `a hidden folder holding a SKILL.md is skipped with a warning that says how to load it`() throws
  {
    let fixture = try SkillFixture()
    try fixture.skill("good", in: "root")
    try fixture.skill(".claude", in: "root", frontMatter: "name: claude\ndescription: Does claude things.")
    try fixture.skill("deep", in: "root/.agents/skills")
    try fixture.write("x", to: "root/.hidden-file")
    let message =
      "warning: this folder holds a SKILL.md, but its name starts with \".\" and hidden folders are not "
      + "searched for skills; to load it, pass the folder itself as a root"
    for mode in [SkillValidationMode.lenient, .strict] {
      let library = try SkillsLibrary(root: fixture.url("root"), mode: mode)
      #expect(library.names == ["good"], "\(mode)")
      // Only the folder that holds SKILL.md itself is named; .agents is not searched.
      #expect(lines(library.diagnostics) == [message], "\(mode)")
      #expect(library.diagnostics.map(\.path) == [fixture.url("root/.claude").path], "\(mode)")
    }
    // Alone under a root, it is the reason the root has no skills: no second warning.
    let lone = try SkillFixture()
    try lone.skill(".claude", frontMatter: "name: claude\ndescription: Does claude things.")
    let library = try SkillsLibrary(root: lone.root)
    #expect(library.skills.isEmpty)
    #expect(lines(library.diagnostics) == [message])
    // Passed itself, it loads.
    #expect(try SkillsLibrary(roots: [lone.url(".claude")]).names == ["claude"])
  }
}
