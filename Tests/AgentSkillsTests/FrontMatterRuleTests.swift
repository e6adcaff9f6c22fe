import Foundation
import Testing

@testable import AgentSkills

@Suite(.timeLimit(.minutes(10))) struct FrontMatterRuleTests {
  @Test(.timeLimit(.minutes(10))) func `a valid skill loads with its front matter`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(
      "pdf-tools",
      frontMatter: """
        name: pdf-tools
        description: Fills and merges PDF forms.
        license: Apache-2.0
        compatibility: Needs python3 and pdftk on PATH.
        allowed-tools: Bash(pdftk:*) Read  Write
        metadata:
          author: ContextKit
          version: "1.0"
        """)
    let skill = try SkillLoader(mode: .strict).load(folder: folder)
    #expect(skill.name == "pdf-tools")
    #expect(skill.description == "Fills and merges PDF forms.")
    #expect(skill.frontMatter.license == "Apache-2.0")
    #expect(skill.frontMatter.compatibility == "Needs python3 and pdftk on PATH.")
    #expect(skill.frontMatter.allowedTools == ["Bash(pdftk:*)", "Read", "Write"])
    #expect(skill.frontMatter.metadata == ["author": "ContextKit", "version": "1.0"])
    #expect(skill.activation == .prompt)
    #expect(!skill.allowsDeactivation)
    #expect(skill.diagnostics.isEmpty)
  }

  @Test(
    .timeLimit(.minutes(10)),
    arguments: [
      ("PDF-Tools", "name \"PDF-Tools\" must be lowercase"),
      ("pdf_tools", "name \"pdf_tools\" may only contain a-z, 0-9 and \"-\"; \"_\" is not allowed"),
      ("-pdf", "name \"-pdf\" must not begin or end with \"-\""),
      ("pdf-", "name \"pdf-\" must not begin or end with \"-\""),
      ("pdf--tools", "name \"pdf--tools\" must not contain \"--\""),
      ("café", "name \"café\" may only contain a-z, 0-9 and \"-\"; \"é\" is not allowed"),
      (String(repeating: "a", count: 65), "name is 65 characters; the limit is 64"),
    ])
  func `names that break the rules are errors when strict and warnings when lenient`(
    name: String, message: String
  )
    throws
  {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(name, frontMatter: "name: \"\(name)\"\ndescription: Something useful.")
    let lenient = inspect(folder)
    #expect(lenient.skill?.name == name)
    #expect(lenient.diagnostics.map(\.severity) == [.warning])
    #expect(lenient.diagnostics.map(\.message).contains(message))
    let report = inspect(folder, mode: .strict)
    #expect(report.skill == nil)
    #expect(errors(report).contains(message))
    let error = try #require(report.firstError)
    #expect(error.line == 2)
    #expect(error.column == 7)
  }

  @Test(.timeLimit(.minutes(10)))
  func `the name must equal the folder name when strict; lenient loads it by its name`()
    throws
  {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("pdf", frontMatter: "name: pdf-tools\ndescription: Something useful.")
    let lenient = inspect(folder)
    #expect(lenient.skill?.name == "pdf-tools")
    #expect(lenient.diagnostics.map(\.severity) == [.warning])
    let report = inspect(folder, mode: .strict)
    #expect(
      errors(report) == [
        "name \"pdf-tools\" must match its folder's name \"pdf\"; rename the folder or the skill"
      ])
    #expect(report.firstError?.description.hasSuffix("SKILL.md:2:7: error: " + errors(report)[0]) == true)
  }

  @Test(.timeLimit(.minutes(10))) func `a description over 1,024 characters names its length`() throws {
    let fixture = try SkillFixture()
    let long = String(repeating: "x", count: 1204)
    let folder = try fixture.skill("long", frontMatter: "name: long\ndescription: \(long)")
    #expect(errors(inspect(folder, mode: .strict)) == ["description is 1,204 characters; the limit is 1,024"])
    #expect(inspect(folder).skill?.description == long)
  }

  @Test(.timeLimit(.minutes(10))) func `missing and empty required fields are errors`() throws {
    let fixture = try SkillFixture()
    let missing = try fixture.skill("missing", frontMatter: "license: MIT")
    #expect(
      errors(inspect(missing, mode: .strict)) == [
        "the front matter has no name; add a line \"name: missing\" (the folder's name is used)",
        "the front matter has no description; add a line \"description: ...\"",
      ])
    // Lenient: a missing name is the folder's, a missing description is still an error.
    #expect(
      errors(inspect(missing)) == ["the front matter has no description; add a line \"description: ...\""])
    let nameless = try fixture.skill("nameless", frontMatter: "description: Does things.")
    #expect(inspect(nameless).skill?.name == "nameless")
    let empty = try fixture.skill("empty", frontMatter: "name: empty\ndescription: \"  \"")
    #expect(errors(inspect(empty)) == ["description is empty"])
  }

  @Test(.timeLimit(.minutes(10))) func `compatibility is limited to 500 characters`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(
      "compat",
      frontMatter: "name: compat\ndescription: Ok.\ncompatibility: \(String(repeating: "c", count: 501))")
    #expect(errors(inspect(folder, mode: .strict)) == ["compatibility is 501 characters; the limit is 500"])
    #expect(inspect(folder).skill?.frontMatter.compatibility?.count == 501)
  }

  @Test(.timeLimit(.minutes(10))) func `wrong types are errors that say what YAML read`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(
      "typed",
      frontMatter: """
        name: typed
        description: [a, b]
        license: 42
        metadata: just text
        allowed-tools:
          - Read
        """)
    let report = inspect(folder, mode: .strict)
    #expect(
      errors(report) == [
        "a list in flow style ([...]): strict YAML readers refuse it; write one item per line",
        "description must be a string, not a list",
        "license must be a string, but YAML reads a number; it is read as the text \"42\" (quote it: license: \"42\")",
        "metadata must be a mapping of string keys to string values, not a string; it is ignored",
      ])
    #expect(report.diagnostics.map(\.line) == [3, 3, 4, 5, 7])
    // Lenient: only the description, which no agent can use, is an error.
    #expect(errors(inspect(folder)) == ["description must be a string, not a list"])
  }

  @Test(
    .timeLimit(.minutes(10)),
    arguments: [
      "true", "True", "TRUE", "false", "False", "FALSE", "yes", "Yes", "YES", "no", "No", "NO", "on", "On",
      "ON",
      "off", "Off", "OFF",
    ])
  func `every YAML 1.1 boolean is a boolean, not a string`(word: String) throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("typed", frontMatter: "name: typed\ndescription: Types.\nlicense: \(word)")
    #expect(
      errors(inspect(folder, mode: .strict)) == [
        "license must be a string, but YAML reads a boolean; it is read as the text \"\(word)\" "
          + "(quote it: license: \"\(word)\")"
      ])
    #expect(inspect(folder).skill?.frontMatter.license == word)
    let quoted = try fixture.skill(
      "quoted", frontMatter: "name: quoted\ndescription: Types.\nlicense: \"\(word)\"")
    #expect(errors(inspect(quoted, mode: .strict)) == [])
  }

  @Test(.timeLimit(.minutes(10)))
  func `nested metadata is kept with a warning, and flow style is an error when strict`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(
      "meta", frontMatter: "name: meta\ndescription: Ok.\nmetadata:\n  version: 1.5\n  nested:\n    a: b")
    // The reference validator reads nested block metadata as text: strict mode loads it too.
    let report = inspect(folder, mode: .strict)
    #expect(report.skill != nil)
    #expect(report.diagnostics.map(\.severity) == [.warning, .warning])
    #expect(report.diagnostics.map(\.line) == [5, 7])
    let flow = try fixture.skill(
      "flow", frontMatter: "name: flow\ndescription: Ok.\nmetadata:\n  nested: {a: [b, c]}")
    #expect(
      errors(inspect(flow, mode: .strict)) == [
        "a mapping in flow style ({...}): strict YAML readers refuse it; write one item per line"
      ])
    #expect(inspect(flow, mode: .strict).diagnostics.filter(\.isError).map(\.line) == [5])
    #expect(inspect(flow).skill?.frontMatter.metadataValues["nested"]?.jsonString == #"{"a":["b","c"]}"#)
    let lenient = inspect(folder)
    #expect(lenient.diagnostics.map(\.severity) == [.warning, .warning])
    #expect(lenient.skill?.frontMatter.metadata == ["version": "1.5"])
    #expect(lenient.skill?.frontMatter.metadataValues["nested"]?.jsonString == #"{"a":"b"}"#)
    #expect(lenient.skill?.frontMatter.metadataValues["version"]?.jsonString == "1.5")
  }

  @Test(.timeLimit(.minutes(10))) func `unknown keys warn when lenient and fail when strict`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("extra", frontMatter: "name: extra\ndescription: Ok.\nversion: 2")
    let lenient = try SkillLoader().load(folder: folder)
    #expect(lenient.diagnostics.map(\.severity) == [.warning])
    #expect(lenient.diagnostics.first?.line == 4)
    #expect(lenient.diagnostics.first?.message.hasPrefix("unknown front matter key \"version\"") == true)
    let error = #expect(throws: SkillLoadingError.self) {
      try SkillLoader(mode: .strict).load(folder: folder)
    }
    #expect(error?.diagnostic.severity == .error)
    #expect(error?.diagnostic.line == 4)
  }

  @Test(.timeLimit(.minutes(10))) func `duplicate keys are errors when strict; lenient keeps the first`()
    throws
  {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("dup", frontMatter: "name: dup\ndescription: One.\ndescription: Two.")
    #expect(
      errors(inspect(folder, mode: .strict)) == [
        "duplicate key \"description\" (first given on line 3); keep one"
      ])
    #expect(inspect(folder).skill?.description == "One.")
  }

  @Test(.timeLimit(.minutes(10))) func `activation settings live under metadata`() throws {
    let fixture = try SkillFixture()
    let instructions = try fixture.skill(
      "always",
      frontMatter:
        "name: always\ndescription: Ok.\nmetadata:\n  activation: instructions\n  allows-deactivation: \"true\""
    )
    let skill = try SkillLoader(mode: .strict).load(folder: instructions)
    #expect(skill.activation == .instructions)
    #expect(skill.allowsDeactivation)

    let bad = try fixture.skill(
      "bad",
      frontMatter:
        "name: bad\ndescription: Ok.\nmetadata:\n  activation: always\n  allows-deactivation: maybe")
    #expect(
      errors(inspect(bad, mode: .strict)) == [
        "metadata.activation is \"always\"; use \"prompt\" or \"instructions\" (read as prompt)",
        "metadata.allows-deactivation is \"maybe\"; use \"true\" or \"false\"",
      ])
    #expect(inspect(bad).skill?.activation == .prompt)

    let prompt = try fixture.skill(
      "prompty", frontMatter: "name: prompty\ndescription: Ok.\nmetadata:\n  allows-deactivation: \"true\"")
    let loaded = try SkillLoader().load(folder: prompt)
    #expect(!loaded.allowsDeactivation)
    #expect(loaded.diagnostics.map(\.severity) == [.warning])
    #expect(inspect(prompt, mode: .strict).firstError?.line == 5)
  }

  @Test(.timeLimit(.minutes(10))) func `a front matter that is not a mapping is an error`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("list", frontMatter: "- name\n- description")
    #expect(errors(inspect(folder)).first?.hasPrefix("the front matter must be YAML keys and values") == true)
    let empty = try fixture.skill("blank", frontMatter: "")
    #expect(errors(inspect(empty)) == ["the front matter is empty; add at least name and description"])
  }

  @Test(.timeLimit(.minutes(10)))
  func `a name is never trimmed: blanks around it are characters it may not hold`()
    throws
  {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("pdf", frontMatter: "name: \" pdf \"\ndescription: Reads PDF files.")
    #expect(
      errors(inspect(folder, mode: .strict)) == [
        #"name " pdf " may only contain a-z, 0-9 and "-"; " " is not allowed"#,
        #"name " pdf " must match its folder's name "pdf"; rename the folder or the skill"#,
      ])
    #expect(inspect(folder).skill?.name == " pdf ")
  }

  @Test(.timeLimit(.minutes(10))) func `a block scalar description is trimmed`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(
      "folded",
      frontMatter: "name: folded\ndescription: >\n  Reviews things\n  carefully.\nlicense: \" MIT \"")
    let skill = try SkillLoader(mode: .strict).load(folder: folder)
    #expect(skill.description == "Reviews things carefully.")
    #expect(skill.frontMatter.license == "MIT")
  }
}

@Test(.timeLimit(.minutes(10)))
func `a name that breaks several rules gets one finding for each`() throws {
  let fixture = try SkillFixture()
  let folder = try fixture.skill(
    "agentdb-vector-search", frontMatter: "name: AgentDB Vector Search\ndescription: Searches vectors.")
  let expected = [
    "name \"AgentDB Vector Search\" must be lowercase",
    "name \"AgentDB Vector Search\" may only contain a-z, 0-9 and \"-\"; \" \" is not allowed",
    "name \"AgentDB Vector Search\" must match its folder's name \"agentdb-vector-search\"; "
      + "rename the folder or the skill",
  ]
  let lenient = inspect(folder)
  #expect(lenient.skill?.name == "AgentDB Vector Search")
  #expect(lenient.diagnostics.map(\.severity) == [.warning, .warning, .warning])
  #expect(lenient.diagnostics.map(\.message) == expected)
  #expect(errors(inspect(folder, mode: .strict)) == expected)
  // A capital and a "_" in a folder of the same name: both said, no folder finding.
  let both = try fixture.skill("Pdf_Tools", frontMatter: "name: Pdf_Tools\ndescription: Fills forms.")
  #expect(
    inspect(both).diagnostics.map(\.message) == [
      "name \"Pdf_Tools\" must be lowercase",
      "name \"Pdf_Tools\" may only contain a-z, 0-9 and \"-\"; \"_\" is not allowed",
    ])
}

extension FrontMatterRuleTests {
  /// `levels` nested flow sequences around one scalar: `[[…[x]…]]`.
  private func nested(_ levels: Int) -> String {
    String(repeating: "[", count: levels) + "x" + String(repeating: "]", count: levels) + "\n"
  }

  @Test func `YAML nested exactly to the depth limit reads, one level more is refused`() throws {
    #expect(YAMLReader.maximumDepth == 64)
    let parsed = try YAMLReader.parse(nested(64)).get()
    var node = try #require(parsed)
    var depth = 0
    while case .sequence(let items) = node.value, let first = items.first {
      depth += 1
      node = first
    }
    #expect(depth == 64)
    guard case .failure(let error) = YAMLReader.parse(nested(65)) else {
      Issue.record("65 nested levels were read")
      return
    }
    #expect(error.message == "YAML is nested more than 64 levels deep")
    // The 65th opening bracket: line 1, column 65.
    #expect((error.line, error.column) == (1, 65))
  }

  @Test func `a YAML alias in the front matter is named, never read as a value`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(
      "aliased", frontMatter: "name: aliased\ndescription: &d Reviews SQL.\ncompatibility: *d")
    let error = try #require(inspect(folder, mode: .strict).firstError, "an alias was read as a value")
    #expect(error.message.hasPrefix("compatibility must be a string, not an alias"), "\(error.message)")
    #expect(inspect(folder).skill?.frontMatter.compatibility == nil)
    // Line 1 is the opening `---`: the alias is on line 4, after `compatibility: `.
    #expect((error.line, error.column) == (4, 16))
  }
}

extension FrontMatterRuleTests {
  @Test(.timeLimit(.minutes(10))) func `plain YAML scalars are classified as YAML 1.1 reads them`() {
    #expect(YAMLNode.plainScalarKind("42") == "number")
    #expect(YAMLNode.plainScalarKind("-1.5e3") == "number")
    #expect(YAMLNode.plainScalarKind("0x1F") == "number")
    #expect(YAMLNode.plainScalarKind("yes") == "boolean")
    #expect(YAMLNode.plainScalarKind("~") == "null")
    #expect(YAMLNode.plainScalarKind("1.0.2") == nil)
    #expect(YAMLNode.plainScalarKind("2024 notes") == nil)
    #expect(YAMLNode.plainScalarKind("e5") == nil)
  }
}
