import ModelSession
import TestSupport
import Testing

@testable import AgentSkills

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
}
