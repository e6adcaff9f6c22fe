import Foundation
import ModelSession
import TestSupport
import Testing

@testable import AgentSkills

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The session's instructions entry, its text segments one per line.
private func storedInstructions(_ session: LanguageModelSession) -> String? {
  guard case .instructions(let instructions) = session.transcript.first else { return nil }
  return instructions.segments.compactMap { segment -> String? in
    if case .text(let text) = segment { text.content } else { nil }
  }.joined(separator: "\n")
}

/// The description of the catalog's activation tool, as the model was sent it.
private func activationToolDescription(_ script: ModelScript) -> String? {
  script.requests.first?.enabledToolDefinitions.first {
    $0.name == Skills.activateToolName || $0.name == Skills.toggleToolName
  }?.description
}

private func outputs(_ session: LanguageModelSession) -> [String] {
  session.transcript.compactMap { entry -> String? in
    if case .toolOutput(let output) = entry { output.segments.joinedText } else { nil }
  }
}

private func call(_ skill: String, tool: String = Skills.activateToolName) -> ScriptStep {
  .toolCall(name: tool, arguments: #"{"skill":"\#(skill)"}"#)
}

@Suite(.timeLimit(.minutes(10))) struct SkillsTextTests {
  /// The texts the model reads from a skills catalog by default: the lead
  /// instruction, one block per skill, the activation tool's description and
  /// what the tool answers. They are the companion package's words, so that an
  /// app's prompts read the same after porting; each is checked whole, through
  /// a session.
  @Suite("Skills catalog texts") struct Catalog {
    static let lead =
      "If a skill below fits the user's request, silently activate it before responding. "
      + "Otherwise, respond normally without calling tools."

    @Test func `the lead, then a block per skill in the order given, each after a blank line`() async throws {
      let activations = SkillActivations()
      let script = ModelScript([call("tone"), .text("Done.")])
      let session = LanguageModelSession(
        model: ScriptedLanguageModel(script: script),
        profile: Profile {
          Skills(activations: activations) {
            Skill(name: "sql", description: "Reviews SQL.", prompt: "Check the joins.")
            Skill(name: "tone", description: "House tone.", instructions: "Write warmly.")
            Skill(name: "notes", description: "Release notes.") {
              Instructions {
                "Lead with the change."
                "Name the version."
              }
            }
          }
        })
      try await session.respond(to: "Write it.")
      let before = """
        \(Self.lead)

        Skill: sql [on demand]
        Description: Reviews SQL.

        Skill: tone [inactive]
        Description: House tone.

        Skill: notes [inactive]
        Description: Release notes.
        """
      let after = """
        \(Self.lead)

        Skill: sql [on demand]
        Description: Reviews SQL.

        Skill: tone [active]
        Write warmly.

        Skill: notes [inactive]
        Description: Release notes.
        """
      #expect(script.requests.map { requestInstructions($0) } == [before, after])
      // The stored instructions entry holds the catalog as the model last read it.
      #expect(storedInstructions(session) == after)
      #expect(outputs(session) == ["Successfully activated skill: tone"])
    }

    @Test func `a builder skill's instruction lines follow its active label, one a line`() async throws {
      let activations = SkillActivations()
      activations.activate("notes")
      let script = ModelScript([.text("Done.")])
      let session = LanguageModelSession(
        model: ScriptedLanguageModel(script: script),
        profile: Profile {
          Skills(activations: activations, instructions: Instructions("Use a skill when it fits.")) {
            Skill(name: "notes", description: "Release notes.") {
              Instructions {
                "Lead with the change."
                "Name the version."
              }
            }
          }
        })
      try await session.respond(to: "Write it.")
      #expect(
        storedInstructions(session)
          == "Use a skill when it fits.\n\nSkill: notes [active]\nLead with the change.\nName the version.")
    }

    @Test(arguments: [false, true], [false, true])
    func `the tool's description says what the catalog allows`(
      deactivation: Bool, onDemand: Bool
    ) async throws {
      let script = ModelScript([.text("Done.")])
      let session = LanguageModelSession(
        model: ScriptedLanguageModel(script: script),
        profile: Profile {
          Skills(activations: SkillActivations()) {
            Skill(
              name: "tone", description: "House tone.", instructions: "Write warmly.",
              allowsDeactivation: deactivation)
            if onDemand { Skill(name: "sql", description: "Reviews SQL.", prompt: "Check the joins.") }
          }
        })
      try await session.respond(to: "Hello.")
      let verb = deactivation ? "Activate or deactivate" : "Activate"
      let onDemandSentence =
        onDemand
        ? " Skills marked [on demand] aren't toggled on or off; calling this tool on one delivers its guidance once."
        : ""
      #expect(
        activationToolDescription(script)
          == verb
          + " a skill yourself when the user's request matches its description, and otherwise respond "
          + "normally without calling this tool. Don't ask the user for permission to activate, and don't "
          + "mention activation in your response." + onDemandSentence)
    }

    @Test func `a description given replaces the default`() async throws {
      let script = ModelScript([.text("Done.")])
      let session = LanguageModelSession(
        model: ScriptedLanguageModel(script: script),
        profile: Profile {
          Skills(activations: SkillActivations(), toolDescription: "Pick a skill.") {
            Skill(name: "tone", description: "House tone.", instructions: "Write warmly.")
          }
        })
      try await session.respond(to: "Hello.")
      #expect(activationToolDescription(script) == "Pick a skill.")
    }

    @Test
    func
      `the tool answers an activation and a deactivation in a short sentence, a prompt skill with its body`()
      async throws
    {
      let script = ModelScript([
        call("tone", tool: Skills.toggleToolName), call("sql", tool: Skills.toggleToolName),
        call("tone", tool: Skills.toggleToolName), .text("Done."),
      ])
      let session = LanguageModelSession(
        model: ScriptedLanguageModel(script: script),
        profile: Profile {
          Skills(activations: SkillActivations()) {
            Skill(
              name: "tone", description: "House tone.", instructions: "Write warmly.",
              allowsDeactivation: true)
            Skill(name: "sql", description: "Reviews SQL.", prompt: "Check the joins.")
          }
        })
      try await session.respond(to: "Go.")
      #expect(
        outputs(session) == [
          "Successfully activated skill: tone", "Check the joins.", "Successfully deactivated skill: tone",
        ])
    }
  }

  /// The messages of the notes a skills catalog records, each rendered from its
  /// fields and checked whole; the behaviour tests compare the fields.
  @Suite("Skills note texts") struct Notes {
    func note(_ kind: GenerationNote.Kind, _ names: [GenerationNote.Field: [String]]) -> GenerationNote {
      GenerationNote(source: "skills", kind: kind, message: "", names: names)
    }

    @Test
    func
      `instructions skills switched say the instructions were rewritten, and the tools when they bring some`()
    {
      let rewritten =
        "the instructions were rewritten, so a prompt cache is invalidated from the instructions on"
      #expect(
        SkillInstructionsChangeNote.message(for: note(.instructionsChanged, [.activated: ["tone"]]))
          == "instructions skill activated tone: \(rewritten)")
      #expect(
        SkillInstructionsChangeNote.message(
          for: note(
            .instructionsChanged,
            [.activated: ["alpha", "zeta"], .deactivated: ["beta"], .tools: ["fetch_report"]]))
          == "instructions skill activated alpha, zeta; deactivated beta: \(rewritten); the tool list changed too"
      )
      #expect(
        SkillInstructionsChangeNote.message(
          for: note(.toolsChanged, [.deactivated: ["reports"], .removed: ["fetch_report"]]))
          == "instructions skill deactivated reports: the tool list removed fetch_report")
    }

    @Test func `a changed catalog names the skills added, removed and edited`() {
      let names: [GenerationNote.Field: [String]] = [
        .added: ["delta"], .removed: ["beta"], .edited: ["alpha"],
      ]
      let summary = "skill catalog added delta; removed beta; description changed for alpha"
      #expect(
        SkillCatalogChangeNote.message(for: note(.instructionsChanged, names))
          == "\(summary): the instructions were rewritten, so a prompt cache is invalidated from the instructions on"
      )
      #expect(
        SkillCatalogChangeNote.message(for: note(.toolsChanged, names))
          == "\(summary): the activation tool's list of skills changed")
    }

    @Test func `activations outside the model's tool call say what was delivered, activated or left alone`() {
      #expect(
        SkillTurnActivation.message(for: note(.information, [.activated: ["release-tone"]]))
          == "the prompt activated release-tone (/name)")
      #expect(
        SkillTurnActivation.message(for: note(.information, [.unknownCommands: ["tmp", "no-such-skill"]]))
          == "the prompt mentions /tmp, /no-such-skill, which no skill of the catalog is named; left as written"
      )
      #expect(
        SkillTurnActivation.message(for: note(.information, [.alreadyVisible: ["swift-style"]]))
          == "not delivered again, the model already sees the body of swift-style")
      #expect(
        SkillTurnActivation.message(
          for: note(.information, [.deliveredByUser: ["swift-style"], .deliveredByApp: ["release-notes"]]))
          == "delivered the body of swift-style (/swift-style in the prompt), release-notes (by the app) after the "
          + "turn's entries, as an activation tool call and its output (appended: the prompt cache is kept)")
    }

    @Test func `a trimmed catalog gives its budget, each step and what it takes now`() {
      let listing = SkillCatalogListing(
        text: "", tokenCount: 2_050, fullTokenCount: 31_002, budget: 2_000,
        steps: [
          .descriptionsShortened(count: 1_000, characterLimit: 80), .namesOnly,
          .skillsLeftOut(["mango", "kiwi"]),
        ], listedSkillNames: ["apple"])
      #expect(
        listing.note?.message
          == "catalog of 3 skills over its budget of 2,000 tokens (31,002 tokens in full): 1,000 descriptions "
          + "shortened to the first sentence and at most 80 characters; names only; 2 skills left out, the last "
          + "in catalog order from mango on; the catalog now takes 2,050 tokens, still over the budget: no smaller "
          + "catalog is possible; skills left out can still be activated by name")
    }
  }

  /// The diagnostic messages of `SkillLoader` and `SkillsLibrary` that name a
  /// skipped file, folder or setting, each in the situation that triggers it,
  /// with its severity.
  @Suite("Skill diagnostic messages") struct Diagnostics {
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
        frontMatter: "name: prompty\ndescription: A prompt skill.\nmetadata:\n  allows-deactivation: \"true\""
      )
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

    @Test func `a hidden folder holding a SKILL.md is skipped with a warning that says how to load it`()
      throws
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
}
