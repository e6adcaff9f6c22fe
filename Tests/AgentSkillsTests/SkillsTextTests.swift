import AgentSkills
import ModelSession
import TestSupport
import Testing

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

/// The texts the model reads from a skills catalog by default: the lead
/// instruction, one block per skill, the activation tool's description and
/// what the tool answers. They are the companion package's words, so that an
/// app's prompts read the same after porting; each is checked whole, through
/// a session.
@Suite(.timeLimit(.minutes(10))) struct `Skills catalog texts` {
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
  func `the tool's description says what the catalog allows`(deactivation: Bool, onDemand: Bool) async throws
  {
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
        == verb + " a skill yourself when the user's request matches its description, and otherwise respond "
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
  func `the tool answers an activation and a deactivation in a short sentence, a prompt skill with its body`()
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
            name: "tone", description: "House tone.", instructions: "Write warmly.", allowsDeactivation: true)
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
