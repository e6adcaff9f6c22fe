import AgentSkills
import Foundation
import ModelSession
import TestSupport
import Testing

/// A corpus of generated skills in every shape seen in public collections
/// (``WildSkillCorpus``): lenient mode loads what the Agent Skills client
/// guide loads, strict mode refuses every departure from the format, as the
/// reference validator does.
@Suite("Skill loader on a corpus of real-world shapes", .timeLimit(.minutes(10)))
struct SkillLoaderCorpusTests {
  /// One skill of every shape, written under a fresh root.
  private static func corpus() throws -> (
    fixture: SkillFixture, skills: [(folder: String, shape: WildSkillCorpus.Shape)]
  ) {
    let fixture = try SkillFixture()
    let skills = try WildSkillCorpus.write(
      count: WildSkillCorpus.Shape.allCases.count, at: fixture.url("wild"))
    return (fixture, skills)
  }

  @Test func `lenient mode loads every shape the client guide loads, under the name the front matter gives`()
    throws
  {
    let (fixture, skills) = try Self.corpus()
    let library = try SkillsLibrary(root: fixture.url("wild"))
    for (folder, shape) in skills {
      let file = fixture.url("wild/\(folder)/SKILL.md").path
      let errors = library.diagnostics.filter { $0.path == file && $0.isError }
      let warnings = library.diagnostics.filter { $0.path == file && !$0.isError }
      switch shape.guideOutcome(folder: folder) {
      case .loads(let name):
        let skill = library.skill(named: name)
        #expect(skill?.folder.lastPathComponent == folder, "\(shape): \(library.names)")
        #expect(errors.isEmpty, "\(shape): \(errors)")
        // Every departure from the format is said, once loaded: only the conforming skill is silent.
        #expect(warnings.isEmpty == (shape == .conforming), "\(shape): \(warnings)")
      case .refused:
        #expect(!library.loadedSkills.contains { $0.folder.lastPathComponent == folder }, "\(shape)")
        #expect(errors.count >= 1, "\(shape) is refused without an error")
      }
    }
    let expectedLoaded = skills.filter {
      if case .loads = $0.shape.guideOutcome(folder: $0.folder) { true } else { false }
    }
    #expect(library.loadedSkills.count == expectedLoaded.count)
    #expect(expectedLoaded.count == 19)
  }

  @Test func `strict mode refuses every shape but those the reference validator accepts`() throws {
    let (fixture, skills) = try Self.corpus()
    // skills-ref reads nested block metadata as text, does not check allowed-tools, and does not read
    // links: those load in strict mode too, with their warnings.
    let accepted: Set<WildSkillCorpus.Shape> = [
      .conforming, .nestedMetadata, .allowedToolsList, .resourceInOtherCase, .surrogatePairEscape,
    ]
    for (folder, shape) in skills {
      let loaded = try? SkillLoader(mode: .strict).load(folder: fixture.url("wild/\(folder)"))
      #expect((loaded != nil) == accepted.contains(shape), "\(shape)")
    }
  }

  @Test(
    .enabled(
      if: referenceValidator != nil,
      "the skills-ref validator is not installed; run scripts/install-dependencies (pip install skills-ref)"))
  func `strict mode agrees with the skills-ref reference validator on every shape`() throws {
    let validator = try #require(referenceValidator)
    let (fixture, skills) = try Self.corpus()
    for (folder, shape) in skills {
      let url = fixture.url("wild/\(folder)")
      let process = Process()
      process.executableURL = validator
      process.arguments = ["validate", url.path]
      process.standardOutput = Pipe()
      process.standardError = Pipe()
      try process.run()
      process.waitUntilExit()
      let referenceValid = process.terminationStatus == 0
      let strictValid = (try? SkillLoader(mode: .strict).load(folder: url)) != nil
      #expect(
        strictValid == referenceValid, "\(shape): skills-ref says \(referenceValid ? "valid" : "invalid")")
    }
  }

  @Test func `nested metadata is kept and readable as structured values`() throws {
    let fixture = try SkillFixture()
    for shape in [WildSkillCorpus.Shape.nestedMetadata, .flowMetadata, .metadataList] {
      try WildSkillCorpus.writeSkill(
        shape, folder: WildSkillCorpus.folderName(index: 0, shape: shape), under: fixture.root)
    }
    let library = try SkillsLibrary(root: fixture.root)
    let nested = try #require(library.skill(named: "wild-0-nestedmetadata")).frontMatter
    #expect(nested.metadata == ["version": "1.0"])
    let runner = try #require(nested.metadataValues["runner"])
    #expect(try runner.value(String.self, forProperty: "emoji") == "🔧")
    let requires = try runner.value(GeneratedContent.self, forProperty: "requires")
    #expect(try requires.value([String].self, forProperty: "bins") == ["git", "jq"])
    #expect(runner.jsonString == #"{"emoji":"🔧","requires":{"bins":["git","jq"]}}"#)

    let flow = try #require(library.skill(named: "wild-0-flowmetadata")).frontMatter
    #expect(flow.metadata == ["author": "corpus"])
    #expect(flow.metadataValues["runner"]?.jsonString == #"{"always":true,"requires":{"bins":["git"]}}"#)

    let list = try #require(library.skill(named: "wild-0-metadatalist")).frontMatter
    #expect(try list.metadataValues["tags"]?.value([String].self) == ["review", "inputs"])
    #expect(list.metadata == ["author": "corpus"])
    #expect(list.metadataValues["author"] == GeneratedContent(kind: .string("corpus")))
  }

  @Test func `allowed-tools written as a list loads as the list of tools, with a warning on its line`() throws
  {
    let fixture = try SkillFixture()
    let folder = WildSkillCorpus.folderName(index: 0, shape: .allowedToolsList)
    try WildSkillCorpus.writeSkill(.allowedToolsList, folder: folder, under: fixture.root)
    let skill = try SkillLoader().load(folder: fixture.url(folder))
    #expect(skill.frontMatter.allowedTools == ["Read", "Grep", "Bash(git:*)"])
    #expect(skill.diagnostics.map(\.severity) == [.warning])
    #expect(skill.diagnostics.map(\.line) == [5])
  }

  @Test func `a value with an unquoted colon is read as if quoted, with a warning on its line`() throws {
    let fixture = try SkillFixture()
    let folder = WildSkillCorpus.folderName(index: 0, shape: .unquotedColon)
    try WildSkillCorpus.writeSkill(.unquotedColon, folder: folder, under: fixture.root)
    let skill = try SkillLoader().load(folder: fixture.url(folder))
    #expect(skill.description == "Checks inputs. Use when: the user asks for a review of \(folder)")
    #expect(skill.diagnostics.map(\.severity) == [.warning])
    #expect(skill.diagnostics.map(\.line) == [3])
    // Strict mode refuses it at the same line, as the reference validator's YAML reader does.
    let strict = SkillLoader(mode: .strict).inspect(folder: fixture.url(folder))
    #expect(strict.skill == nil)
    #expect(strict.diagnostics.map(\.line) == [3])
  }

  @Test func `a character written as a JSON surrogate pair is read as that character, with a warning`() throws
  {
    let fixture = try SkillFixture()
    let folder = WildSkillCorpus.folderName(index: 0, shape: .surrogatePairEscape)
    try WildSkillCorpus.writeSkill(.surrogatePairEscape, folder: folder, under: fixture.root)
    let skill = try SkillLoader(mode: .strict).load(folder: fixture.url(folder))
    #expect(skill.frontMatter.metadata == ["emoji": "\u{1F52D}"])
    #expect(skill.diagnostics.map(\.severity) == [.warning])
    #expect(skill.diagnostics.map(\.line) == [5])
  }

  @Test func `YAML that the fallback cannot mend is one error at libyaml's position`() throws {
    let fixture = try SkillFixture()
    try fixture.skill("broken", frontMatter: "name: broken\ndescription: [unclosed, list\n  of: things")
    let report = SkillLoader().inspect(folder: fixture.url("broken"))
    #expect(report.skill == nil)
    #expect(report.diagnostics.map(\.severity) == [.error])
    #expect(report.diagnostics.first?.line == 4)
  }

  @Test func `a name the naming rules refuse is listed as written in the activation tool's enum`()
    async throws
  {
    let fixture = try SkillFixture()
    try fixture.skill("pdf", frontMatter: "name: PDF_Tools\ndescription: Fills PDF forms.")
    try fixture.skill("other", frontMatter: "name: renamed\ndescription: Does other things.")
    let library = try SkillsLibrary(root: fixture.root)
    #expect(library.names == ["PDF_Tools", "renamed"])
    let activations = SkillActivations()
    let script = ModelScript([
      .toolCall(name: Skills.activateToolName, arguments: #"{"skill":"PDF_Tools"}"#), .text("Done."),
    ])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile { Skills(activations: activations, skills: library.skills) })
    try await session.respond(to: "Fill the form.")
    let outputs = session.transcript.compactMap { entry -> String? in
      if case .toolOutput(let output) = entry { output.segments.joinedText } else { nil }
    }
    #expect(outputs == ["# Use\n\nDo the thing.\n"])
    #expect(activations.loadedSkillNames == ["PDF_Tools"])
  }

  @Test func `a description over 1,024 characters loads whole, and only strict mode refuses it`() throws {
    let fixture = try SkillFixture()
    let folder = WildSkillCorpus.folderName(index: 0, shape: .descriptionTooLong)
    try WildSkillCorpus.writeSkill(.descriptionTooLong, folder: folder, under: fixture.root)
    let skill = try SkillLoader().load(folder: fixture.url(folder))
    #expect(skill.description.count > 1_024)
    #expect(skill.diagnostics.map(\.severity) == [.warning])
    #expect(throws: SkillLoadingError.self) {
      try SkillLoader(mode: .strict).load(folder: fixture.url(folder))
    }
  }

  @Test(
    arguments: [
      (
        "description: Checks spelling in prose.\n  Use when: the user asks for a spelling check.",
        "Checks spelling in prose. Use when: the user asks for a spelling check."
      ),
      (
        "description: Use when: the user asks for a spelling check\n  in prose or essays.",
        "Use when: the user asks for a spelling check in prose or essays."
      ),
      // Quotes and a backslash kept, a blank line kept as a line break, the last line ending in ":".
      (
        "description: Says \"hi\" \\ then\n    goes on:\n\n  Triggers: a, b\nlicense: MIT",
        "Says \"hi\" \\ then goes on:\nTriggers: a, b"
      ),
    ])
  func
    `a value over several lines with an unquoted colon is read as YAML folds it, with a warning on its first line`(
      yaml: String, description: String
    ) throws
  {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("spelling", frontMatter: "name: spelling\n" + yaml)
    let skill = try SkillLoader().load(folder: fixture.url("spelling"))
    #expect(skill.description == description)
    #expect(skill.diagnostics.map(\.severity) == [.warning])
    #expect(skill.diagnostics.map(\.line) == [3])
    // Strict mode refuses it at the same line, as it does a one-line value.
    let strict = SkillLoader(mode: .strict).inspect(folder: folder)
    #expect(strict.skill == nil)
    #expect(strict.diagnostics.map(\.line) == [3])
  }
}
