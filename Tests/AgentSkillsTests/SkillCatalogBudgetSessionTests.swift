import AgentSkills
import ModelSession
import TestSupport
import Testing

/// One session over the hand-counted skills of `handCountedSkills` with a
/// budget; the model answers once (or as scripted).
private func run(
  budget: Int?, steps: [ScriptStep] = [.text("Done.")], generations: Int = 1
) async throws -> (script: ModelScript, records: [GenerationRecord], session: LanguageModelSession) {
  let script = ModelScript(steps)
  let profile = Profile { handCountedSkills(budget: budget) }
  let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
  let stream = session.generationRecords
  try await session.respond(to: "Help me.")
  return (script, await firstRecords(stream, count: generations), session)
}

@Suite(.timeLimit(.minutes(10))) struct SkillCatalogBudgetSessionTests {
  @Suite("Catalog budget through a session") struct ThroughASession {
    @Test func `step one: the model reads first sentences, and the record says how many were shortened`()
      async throws
    {
      let (script, records, _) = try await run(budget: 56)
      #expect(
        requestInstructions(script.requests[0]) == handCountedFirstSentences)
      let notes = records[0].notes.filter { $0.kind == .catalogTrimmed }
      #expect(notes.map(\.names) == [[.steps: ["descriptionsShortened"]]])
      #expect(
        notes.map(\.counts) == [
          [
            .skills: 6, .budget: 56, .tokensBefore: 57, .tokensAfter: 48, .descriptionsShortened: 2,
            .characterLimit: 80,
          ]
        ])
    }

    @Test func `step two: the model reads names only`() async throws {
      let (script, records, _) = try await run(budget: 47)
      #expect(
        requestInstructions(script.requests[0]) == handCountedNamesOnly)
      let note = try #require(records[0].notes.first { $0.kind == .catalogTrimmed })
      #expect(note.names == [.steps: ["descriptionsShortened", "namesOnly"]])
      #expect(
        note.counts == [
          .skills: 6, .budget: 47, .tokensBefore: 57, .tokensAfter: 26, .descriptionsShortened: 2,
          .characterLimit: 80,
        ])
    }

    @Test
    func `step three: skills left out are named in every generation's note and can still be activated`()
      async throws
    {
      let (script, records, session) = try await run(
        budget: 18,
        steps: [.toolCall(name: Skills.activateToolName, arguments: #"{"skill":"delta"}"#), .text("Done.")],
        generations: 2)
      let expected = """
        Skills help.

        Skill: gamma [on demand]

        (5 more skills are not listed; activate_skill takes their names too.)
        """
      #expect(script.requests.map(requestInstructions) == [expected, expected])
      for record in records {
        let note = try #require(record.notes.first { $0.kind == .catalogTrimmed })
        #expect(note.names(.leftOut) == ["alpha", "zeta", "beta", "epsilon", "delta"])
        #expect(note.names(.steps).last == "skillsLeftOut")
      }
      #expect(toolOutputTexts(session.transcript) == ["Delta body."])
    }

    @Test func `the tool definitions are the same with any budget, and a catalog that fits gets no note`()
      async throws
    {
      var definitions: [[Transcript.ToolDefinition]] = []
      for budget in [nil, 57, 56, 47, 18, 12] {
        let (script, records, _) = try await run(budget: budget)
        definitions.append(script.requests[0].enabledToolDefinitions)
        let trimmed = records[0].notes.contains { $0.kind == .catalogTrimmed }
        #expect(trimmed == (budget.map { $0 < 57 } ?? false), "budget \(String(describing: budget))")
      }
      #expect(definitions.allSatisfy { $0 == definitions[0] })
      let schema = try #require(definitions[0].first?.parameters.jsonSchema.jsonString)
      for name in handCountedNames { #expect(schema.contains("\"\(name)\"")) }
    }

    @Test func `two sessions with their own budgets show the model the same bytes`() async throws {
      let first = try await run(budget: 21)
      let second = try await run(budget: 21)
      #expect(requestInstructions(first.script.requests[0]) == requestInstructions(second.script.requests[0]))
      #expect(first.records[0].notes == second.records[0].notes)
    }
  }

  @Suite("Catalog budget across turns") struct AcrossTurns {
    @Test func `a skill activated by the app between turns reads active in the next turn's fitted catalog`()
      async throws
    {
      let activations = SkillActivations()
      let skills = Skills(
        activations: activations, instructions: Instructions("Skills help."),
        skills: [
          Skill(name: "alpha", description: "Reviews SQL.", prompt: "Alpha body."),
          Skill(name: "beta", description: "Formats Swift code.", instructions: Instructions("Beta rules.")),
        ]
      )
      .catalogBudget(SkillCatalogBudget(tokens: 1_000, tokenCounter: CatalogWordCounter()))
      let script = ModelScript([.text("One."), .text("Two.")])
      let session = LanguageModelSession(
        model: ScriptedLanguageModel(script: script), profile: Profile { skills })
      try await session.respond(to: "First.")
      #expect(activations.activate("beta"))
      try await session.respond(to: "Second.")
      #expect(
        script.requests.map(requestInstructions) == [
          "Skills help.\n\nSkill: alpha [on demand]\nDescription: Reviews SQL.\n\n"
            + "Skill: beta [inactive]\nDescription: Formats Swift code.",
          "Skills help.\n\nSkill: alpha [on demand]\nDescription: Reviews SQL.\n\n"
            + "Skill: beta [active]\nBeta rules.",
        ])
    }
  }
}
