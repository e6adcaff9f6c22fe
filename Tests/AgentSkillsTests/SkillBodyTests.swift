import AgentSkills
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct SkillBodyTests {
  @Test(.timeLimit(.minutes(10))) func `the body is kept as written and its headings form a tree`() throws {
    let fixture = try SkillFixture()
    let body = """
      # Review

      Intro with `code`.

      ## Steps
      ### First *step*
      ## Checklist
      # Appendix

      """
    let folder = try fixture.skill("outline", body: body)
    let skill = try SkillLoader(mode: .strict).load(folder: folder)
    #expect(skill.body == body)
    #expect(skill.bodyFirstLine == 5)
    #expect(skill.sections.map(\.title) == ["Review", "Appendix"])
    #expect(skill.sections[0].children.map(\.title) == ["Steps", "Checklist"])
    #expect(skill.sections[0].children[0].children == [SkillSection(level: 3, title: "First step", line: 10)])
    #expect(skill.sections.flatMap(\.flattened).map(\.line) == [5, 9, 10, 11, 12])
  }

  @Test(.timeLimit(.minutes(10))) func `relative links to files in the folder are listed with their lines`()
    throws
  {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(
      "linker",
      body: """
        # Use

        Read [the checklist](references/checklist.md#locks) first,
        then run [the script](./scripts/check.sh) and fill ![form](assets/form%20one.txt).
        See [the web](https://example.com), [mail](mailto:a@b.c) and [above](#use).

        """)
    try fixture.write("- [ ] one\n", to: "linker/references/checklist.md")
    try fixture.write("#!/bin/sh\n", to: "linker/scripts/check.sh")
    try fixture.write("form\n", to: "linker/assets/form one.txt")
    try fixture.write("hidden\n", to: "linker/.DS_Store")
    let skill = try SkillLoader(mode: .strict).load(folder: folder)
    #expect(
      skill.links.map(\.path) == ["references/checklist.md", "scripts/check.sh", "assets/form one.txt"])
    #expect(skill.links.map(\.line) == [7, 8, 8])
    #expect(skill.links[0].column == 22)
    #expect(skill.links[0].destination == "references/checklist.md#locks")
    #expect(
      skill.resources.map(\.path) == ["assets/form one.txt", "references/checklist.md", "scripts/check.sh"])
  }

  @Test(.timeLimit(.minutes(10)))
  func `a link to a missing resource warns when lenient and fails when strict`()
    throws
  {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("gap", body: "# Use\n\nSee [the guide](references/missing.md).\n")
    let skill = try SkillLoader().load(folder: folder)
    #expect(skill.links.isEmpty)
    let warning = try #require(skill.diagnostics.first)
    #expect(warning.severity == .warning)
    #expect(
      warning.message
        == "link \"references/missing.md\" points to a file that does not exist in the skill folder")
    #expect((warning.line, warning.column) == (7, 17))
    #expect(inspect(folder, mode: .strict).firstError?.line == 7)
  }

  @Test(.timeLimit(.minutes(10))) func `links that leave the folder are reported`() throws {
    let fixture = try SkillFixture()
    try fixture.write("secret\n", to: "secret.txt")
    let folder = try fixture.skill(
      "climber",
      body: "# Use\n\n[a](../../etc/passwd) [b](/etc/passwd) [c](../secret.txt) [d](link/secret.txt)\n")
    try fixture.link("climber/link", to: fixture.root.path)
    let skill = try SkillLoader().load(folder: folder)
    #expect(skill.links.isEmpty)
    #expect(skill.diagnostics.filter { $0.message.contains("leaves the skill folder") }.count == 5)
  }

  @Test(.timeLimit(.minutes(10))) func `resolving a resource refuses anything outside the skill folder`()
    throws
  {
    let fixture = try SkillFixture()
    try fixture.write("secret\n", to: "secret.txt")
    let folder = try fixture.skill("vault")
    try fixture.write("inside\n", to: "vault/references/notes.md")
    try fixture.link("vault/references/escape.md", to: fixture.url("secret.txt").path)
    try fixture.link("vault/references/alias.md", to: "notes.md")
    let skill = try SkillLoader().load(folder: folder)
    #expect(skill.resources.map(\.path) == ["references/alias.md", "references/notes.md"])
    #expect(
      skill.diagnostics.first?.message.hasPrefix("resource \"references/escape.md\" is a symbolic link")
        == true
    )

    #expect(try skill.contentsOfResource("references/notes.md") == Data("inside\n".utf8))
    #expect(try skill.contentsOfResource("references/alias.md") == Data("inside\n".utf8))
    #expect(try skill.contentsOfResource("./references/../references/notes.md") == Data("inside\n".utf8))
    #expect(throws: SkillResourceError.outsideSkillFolder("../../etc/passwd", skill: "vault")) {
      try skill.resolveResource("../../etc/passwd")
    }
    #expect(throws: SkillResourceError.outsideSkillFolder("/etc/passwd", skill: "vault")) {
      try skill.resolveResource("/etc/passwd")
    }
    #expect(throws: SkillResourceError.outsideSkillFolder("references/escape.md", skill: "vault")) {
      try skill.contentsOfResource("references/escape.md")
    }
    #expect(throws: SkillResourceError.outsideSkillFolder("../secret.txt", skill: "vault")) {
      try skill.contentsOfResource("../secret.txt")
    }
    #expect(throws: SkillResourceError.notFound("references/none.md", skill: "vault")) {
      try skill.resolveResource("references/none.md")
    }
    #expect(throws: SkillResourceError.notAFile("references", skill: "vault")) {
      try skill.resolveResource("references")
    }
    #expect(throws: SkillResourceError.invalidPath("", skill: "vault")) { try skill.resolveResource("") }
  }

  @Test(.timeLimit(.minutes(10))) func `diagnostics print like compiler messages`() {
    let diagnostic = SkillDiagnostic(
      severity: .error, path: "Skills/pdf/SKILL.md", line: 2, column: 7,
      message: "name \"PDF-Tools\" must be lowercase")
    #expect(diagnostic.description == "Skills/pdf/SKILL.md:2:7: error: name \"PDF-Tools\" must be lowercase")
    #expect(
      SkillDiagnostic(severity: .warning, path: "Skills", message: "no skills").description
        == "Skills: warning: no skills")
  }

  @Test(.timeLimit(.minutes(10))) func `resource listing is bounded in count and depth`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("many")
    for index in 0..<5 { try fixture.write("x", to: "many/assets/file-\(index).txt") }
    try fixture.write("deep", to: "many/a/b/c/d/e/f/g/deep.txt")
    let limits = SkillLoaderLimits(maximumResources: 3)
    let skill = try SkillLoader(limits: limits).load(folder: folder)
    #expect(skill.resources.count == 3)
    #expect(skill.diagnostics.contains { $0.message.hasPrefix("the skill folder holds more than 3 files") })
    let unbounded = try SkillLoader().load(folder: folder)
    #expect(unbounded.resources.count == 5)
    #expect(!unbounded.resources.map(\.path).contains("a/b/c/d/e/f/g/deep.txt"))
    // a/b/c/d/e/f holds files 7 levels down, past the default depth of 6: said, not silent.
    #expect(unbounded.diagnostics.contains { $0.message.contains("\"a/b/c/d/e/f\" is at the depth limit") })
  }

  @Test(.timeLimit(.minutes(10)))
  func `a link's column counts characters, for a second link on a line and on the next line too`() throws {
    let fixture = try SkillFixture()
    let body = "# Use\n\nÜber [a](references/a.md) und [b](references/b.md)\nund [c](references/c.md)\n"
    let folder = try fixture.skill("columns", body: body)
    let warnings = try SkillLoader().load(folder: folder).diagnostics
    // Line 7: "Über [a](" puts a's destination at character 10 (byte 11); then "references/a.md) und [b]("
    // (25 characters) puts b's at 35. Line 8: "und [c](" puts c's at 9.
    #expect(warnings.map { "\($0.line):\($0.column)" } == ["7:10", "7:35", "8:9"], "\(warnings)")
  }

  @Test(.timeLimit(.minutes(10)))
  func `a reference-style link is reported on the link's line, not the definition's`() throws {
    let fixture = try SkillFixture()
    let body = """
      # Use

      [guide]: references/missing.md
      [full]: references/gone.md
      Read [the guide][guide] first,
      then [full] and [the guide][guide] again.

      """
    let folder = try fixture.skill("refs", body: body)
    let warnings = try SkillLoader().load(folder: folder).diagnostics
    // Lines: 1-4 front matter, 5 "# Use", 7 and 8 the definitions, 9 and 10 the links.
    #expect(warnings.map { "\($0.line):\($0.column)" } == ["9:6", "10:6", "10:17"], "\(warnings)")
  }
}
