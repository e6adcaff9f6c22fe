import AgentSkills
import ModelSession
import Testing

@Suite("Catalog budget fitting", .timeLimit(.minutes(10))) struct SkillCatalogBudgetTests {
  let full = """
    Skills help.

    Skill: gamma [on demand]
    Description: Writes release notes.

    Skill: alpha [on demand]
    Description: Reviews SQL for injection. Use it before a merge.

    Skill: zeta [on demand]
    Description: Tags releases.

    Skill: beta [on demand]
    Description: Formats Swift code. Run it on save.

    Skill: epsilon [on demand]
    Description: Sorts imports.

    Skill: delta [on demand]
    Description: Checks links.
    """

  @Test func `with no budget, or a budget the full catalog fits, nothing changes`() async throws {
    for budget in [nil, 57, 1_000] {
      let listing = try await handCountedSkills(budget: budget).catalog(active: [])
      #expect(listing.text == full)
      #expect(listing.steps.isEmpty)
      #expect(listing.note == nil)
      #expect(listing.tokenCount == budget.map { _ in 57 })
      #expect(listing.listedSkillNames == handCountedNames)
    }
  }

  @Test func `one token short: descriptions are cut to their first sentence`() async throws {
    let listing = try await handCountedSkills(budget: 56).catalog(active: [])
    #expect(
      listing.text == handCountedFirstSentences)
    #expect(listing.steps == [.descriptionsShortened(count: 2, characterLimit: 80)])
    #expect(listing.tokenCount == 48)
    #expect(listing.fullTokenCount == 57)
    #expect(listing.leftOutSkillNames.isEmpty)
  }

  @Test func `shortened descriptions that take exactly the budget stop at step one`() async throws {
    // Shortened: 2 + 9 + 8 + 8 + 21 = 48 words; a budget of 48 is not exceeded.
    let listing = try await handCountedSkills(budget: 48).catalog(active: [])
    #expect(listing.steps == [.descriptionsShortened(count: 2, characterLimit: 80)])
    #expect(listing.tokenCount == 48)
    #expect(
      listing.text.contains("Skill: alpha [on demand]\nDescription: Reviews SQL for injection.\n\n"),
      "\(listing.text)")
    #expect(listing.listedSkillNames == handCountedNames)
  }

  @Test func `when shortened descriptions do not fit, names only; 26 tokens fit exactly`() async throws {
    for budget in [47, 26] {
      let listing = try await handCountedSkills(budget: budget).catalog(active: [])
      #expect(
        listing.text == handCountedNamesOnly)
      #expect(listing.steps == [.descriptionsShortened(count: 2, characterLimit: 80), .namesOnly])
      #expect(listing.tokenCount == 26)
    }
  }

  @Test func `then skills are left out from the end of catalog order, as few as fit`() async throws {
    let expectations: [(budget: Int, kept: [String], tokens: Int)] = [
      (25, ["gamma", "alpha", "zeta"], 25), (24, ["gamma", "alpha"], 21), (21, ["gamma", "alpha"], 21),
      (20, ["gamma"], 17), (17, ["gamma"], 17), (16, [], 13), (13, [], 13),
    ]
    for expected in expectations {
      let listing = try await handCountedSkills(budget: expected.budget).catalog(active: [])
      #expect(listing.listedSkillNames == expected.kept, "budget \(expected.budget)")
      #expect(listing.tokenCount == expected.tokens, "budget \(expected.budget)")
      let leftOut = Array(handCountedNames.dropFirst(expected.kept.count))
      #expect(listing.leftOutSkillNames == leftOut)
      #expect(
        listing.steps == [
          .descriptionsShortened(count: 2, characterLimit: 80), .namesOnly, .skillsLeftOut(leftOut),
        ])
      #expect(!listing.isOverBudget)
    }
    let two = try await handCountedSkills(budget: 21).catalog(active: [])
    #expect(
      two.text == """
        Skills help.

        Skill: gamma [on demand]

        Skill: alpha [on demand]

        (4 more skills are not listed; activate_skill takes their names too.)
        """)
  }

  /// Counts characters, so that a long name costs more than the closing line:
  /// then keeping all skills but one can fit where the names-only catalog does not.
  struct CharacterCounter: TokenCounter {
    func tokenCount(of segment: Transcript.Segment) -> Int {
      guard case .text(let text) = segment else { return 1 }
      return text.content.count
    }
    func tokenCount(of entry: Transcript.Entry) -> Int {
      entry.segments.reduce(0) { $0 + tokenCount(of: $1) }
    }
    func tokenCount(of toolDefinition: Transcript.ToolDefinition) -> Int { 1 }
    func tokenCount(of request: LanguageModelExecutorGenerationRequest) -> Int {
      request.transcript.reduce(0) { $0 + tokenCount(of: $1) }
    }
    func tokenCounts(of entries: [Transcript.Entry]) -> [Int] { entries.map { tokenCount(of: $0) } }
  }

  /// Three skills with 60-character names, counted by hand in characters:
  /// the lead `Lead.` 5; a names-only block after its blank line
  /// `\n\nSkill: <name> [on demand]` 2 + 7 + 60 + 12 = 81, so names only
  /// 5 + 243 = 248; a full block adds `\nDescription: Does one thing.` 29, so
  /// full 5 + 330 = 335; two blocks and
  /// `\n\n(1 more skill is not listed; activate_skill takes its name too.)`
  /// (2 + 64) 5 + 162 + 66 = 233; one block and the 69-character paragraph
  /// for two, 5 + 81 + 71 = 157.
  @Test func `all skills but one are kept when that is what fits`() async throws {
    let names = [
      "first-" + String(repeating: "a", count: 54), "second-" + String(repeating: "b", count: 53),
      "third-" + String(repeating: "c", count: 54),
    ]
    for (budget, kept, tokens) in [(247, 2, 233), (233, 2, 233), (232, 1, 157)] {
      let skills = Skills(
        activations: SkillActivations(), instructions: Instructions("Lead."),
        skills: names.map { Skill(name: $0, description: "Does one thing.", prompt: "Body.") }
      ).catalogBudget(SkillCatalogBudget(tokens: budget, tokenCounter: CharacterCounter()))
      let listing = try await skills.catalog(active: [])
      #expect(listing.fullTokenCount == 335, "budget \(budget)")
      #expect(listing.listedSkillNames == Array(names.prefix(kept)), "budget \(budget)")
      #expect(listing.tokenCount == tokens, "budget \(budget)")
      #expect(
        listing.steps == [.namesOnly, .skillsLeftOut(Array(names.dropFirst(kept)))], "budget \(budget)")
    }
  }

  @Test func `a budget below the lead instruction lists no skill and says it is still over`() async throws {
    let listing = try await handCountedSkills(budget: 12).catalog(active: [])
    #expect(
      listing.text == """
        Skills help.

        (6 more skills are not listed; activate_skill takes their names too.)
        """)
    #expect(listing.tokenCount == 13)
    #expect(listing.isOverBudget)
    let note = try #require(listing.note)
    #expect(note.counts[.tokensAfter] == 13)
    #expect(note.counts[.budget].map { $0 < 13 } == true)
    #expect(listing.steps.last == .skillsLeftOut(handCountedNames))
  }

  /// Names only and no skill listed can take the same tokens: two prompt skills
  /// (`Skill: alpha [on demand]`, 4 words each) and an inactive instructions
  /// skill (`Skill: gamma [inactive]`, 3 words) make names only 2 + 4 + 4 + 3 = 13
  /// words, and the lead with `(3 more skills are not listed; activate_skill
  /// takes their names too.)` is 2 + 11 = 13 too. Under a budget of 12 neither
  /// fits, and the tie keeps the catalog that lists every skill.
  @Test func `when names only and no skill listed tie over the budget, names only is kept`() async throws {
    let skills = Skills(
      activations: SkillActivations(), instructions: Instructions("Skills help."),
      skills: [
        Skill(name: "alpha", description: "Checks links.", prompt: "Alpha body."),
        Skill(name: "beta", description: "Sorts imports.", prompt: "Beta body."),
        Skill(name: "gamma", description: "House tone.", instructions: "Write warmly."),
      ]
    ).catalogBudget(SkillCatalogBudget(tokens: 12, tokenCounter: CatalogWordCounter()))
    let listing = try await skills.catalog(active: [])
    #expect(
      listing.text == """
        Skills help.

        Skill: alpha [on demand]

        Skill: beta [on demand]

        Skill: gamma [inactive]
        """)
    #expect(listing.tokenCount == 13)
    #expect(listing.steps == [.namesOnly])
    #expect(listing.listedSkillNames == ["alpha", "beta", "gamma"])
    #expect(listing.isOverBudget)
  }

  /// An active skill's instructions stand in its block and no step touches
  /// them: alpha's block is 4 + 1 + 9 = 14 words (9 shortened), gamma's
  /// `Skill: gamma [active]` and `Write warmly. Keep it short.` 3 + 5 = 8, so
  /// full 2 + 14 + 8 = 24, shortened 2 + 9 + 8 = 19, names only 2 + 4 + 8 = 14.
  @Test func `an active skill's instructions are counted and never shortened nor left out`() async throws {
    func listing(budget: Int) async throws -> SkillCatalogListing {
      try await Skills(
        activations: SkillActivations(), instructions: Instructions("Skills help."),
        skills: [
          Skill(
            name: "alpha", description: "Reviews SQL for injection. Use it before a merge.",
            prompt: "Alpha body."),
          Skill(
            name: "gamma", description: "House tone. For release notes.",
            instructions: "Write warmly. Keep it short."),
        ]
      )
      .catalogBudget(SkillCatalogBudget(tokens: budget, tokenCounter: CatalogWordCounter()))
      .catalog(active: ["gamma"])
    }
    let shortened = try await listing(budget: 19)
    #expect(shortened.fullTokenCount == 24)
    #expect(shortened.steps == [.descriptionsShortened(count: 1, characterLimit: 80)])
    #expect(
      shortened.text == """
        Skills help.

        Skill: alpha [on demand]
        Description: Reviews SQL for injection.

        Skill: gamma [active]
        Write warmly. Keep it short.
        """)
    for budget in [14, 10] {
      let namesOnly = try await listing(budget: budget)
      #expect(
        namesOnly.text
          == "Skills help.\n\nSkill: alpha [on demand]\n\nSkill: gamma [active]\nWrite warmly. Keep it short."
      )
      #expect(namesOnly.tokenCount == 14)
      #expect(namesOnly.listedSkillNames == ["alpha", "gamma"])
      // Under 14, leaving alpha out would take 2 + 8 + 11 = 21: names only stays, over the budget.
      #expect(namesOnly.isOverBudget == (budget < 14))
    }
  }

  @Test func `the note names every step, the counts and where the left-out skills start`() async throws {
    let note = try #require(try await handCountedSkills(budget: 18).catalog(active: []).note)
    #expect(note.kind == .catalogTrimmed)
    #expect(note.source == "skills")
    #expect(
      note.names == [
        .steps: ["descriptionsShortened", "namesOnly", "skillsLeftOut"],
        .leftOut: ["alpha", "zeta", "beta", "epsilon", "delta"],
      ])
    #expect(
      note.counts == [
        .skills: 6, .budget: 18, .tokensBefore: 57, .tokensAfter: 17, .descriptionsShortened: 2,
        .characterLimit: 80,
      ])
  }

  @Test func `fits are deterministic: the same inputs give the same listing, memoized or afresh`()
    async throws
  {
    let skills = handCountedSkills(budget: 18)
    let first = try await skills.catalog(active: [])
    let again = try await skills.catalog(active: [])
    let fresh = try await handCountedSkills(budget: 18).catalog(active: [])
    #expect(first == again)
    #expect(first == fresh)
  }

  @Test func `a short description keeps its first sentence, white space made single`() {
    let budget = SkillCatalogBudget(tokens: 10)
    #expect(
      budget.shortened("Reviews SQL for injection. Use it before a merge.") == "Reviews SQL for injection.")
    #expect(budget.shortened("Reads  logs\n  fast. More text.") == "Reads logs fast.")
    #expect(budget.shortened("Why? Because.") == "Why?")
    #expect(budget.shortened("Parses v1.2 files. Then more.") == "Parses v1.2 files.")
    #expect(budget.shortened("No sentence end") == "No sentence end")
    #expect(budget.shortened("") == "")
    #expect(budget.shortened("\tTabs\u{0B}and\u{0C}feeds.\r\nNext.") == "Tabs and feeds.")
  }

  @Test func `a blank line ends the first sentence even without a period`() {
    let budget = SkillCatalogBudget(tokens: 10)
    #expect(budget.shortened("Reviews SQL\n\nUse it before a merge.") == "Reviews SQL")
    #expect(budget.shortened("Reviews SQL\r\n  \r\nUse it.") == "Reviews SQL")
    #expect(budget.shortened("Reviews\nSQL\r\nfor injection.\n\nMore.") == "Reviews SQL for injection.")
    #expect(budget.shortened("\n\nLeading blank lines. More.") == "Leading blank lines.")
    // The same beyond ASCII, where the general path sees characters.
    #expect(budget.shortened("Lit les données\n\nPuis.") == "Lit les données")
    #expect(budget.shortened("Lit les données\r\n\u{2028}Puis.") == "Lit les données")
  }

  @Test func `text beyond ASCII is shortened by characters: Unicode spaces, combining marks, wide scripts`() {
    let budget = SkillCatalogBudget(tokens: 10)
    // A no-break space and an em space are white space: each becomes one plain space.
    #expect(budget.shortened("Lit\u{00A0}les\u{2003}données. Puis.") == "Lit les données.")
    // A period with a combining acute accent is not a period: the sentence goes on.
    #expect(budget.shortened("Ends.\u{301} here. More.") == "Ends.\u{301} here.")
    // ASCII first, then a non-ASCII sentence end: "Café." ends at its period.
    #expect(budget.shortened("Brews café. Then more.") == "Brews café.")
    // Every sentence end of the ASCII path ends a sentence beyond ASCII too.
    #expect(budget.shortened("Revisa código? Sí. Más.") == "Revisa código?")
    #expect(budget.shortened("Prüft Code! Dann mehr.") == "Prüft Code!")
    #expect(budget.shortened("Prüft Code. Dann mehr.") == "Prüft Code.")
    let five = SkillCatalogBudget(tokens: 10, descriptionCharacterLimit: 5)
    // Eight characters of 3 bytes each, no space: 4 characters and the ellipsis.
    #expect(five.shortened("日本語のテキスト") == "日本語の…")
    // "e" and a combining acute accent are one character.
    #expect(
      five.shortened("e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}")
        == "e\u{301}e\u{301}e\u{301}e\u{301}…")
  }

  @Test func `a long first sentence is cut at a space within the limit and ends with an ellipsis`() {
    let twenty = SkillCatalogBudget(tokens: 10, descriptionCharacterLimit: 20)
    // The first 19 characters are "Formats Swift code "; cut at its last space.
    #expect(
      twenty.shortened("Formats Swift code and keeps the imports sorted by module name.")
        == "Formats Swift code…")
    // Exactly 20 characters stays whole.
    #expect(twenty.shortened("Formats Swift code!!") == "Formats Swift code!!")
    let five = SkillCatalogBudget(tokens: 10, descriptionCharacterLimit: 5)
    #expect(five.shortened("Supercalifragilistic") == "Supe…")
    #expect(SkillCatalogBudget(tokens: 10, descriptionCharacterLimit: 0).descriptionCharacterLimit == 2)
  }

  @Test func `beyond ASCII, a first sentence of exactly the limit stays whole; one more is cut`() {
    let five = SkillCatalogBudget(tokens: 10, descriptionCharacterLimit: 5)
    // 5 characters (15 bytes): at the limit, kept whole with no ellipsis.
    #expect(five.shortened("日本語です") == "日本語です")
    // 6 characters: 4 kept and the ellipsis, 5 in all.
    #expect(five.shortened("日本語ですね") == "日本語で…")
    // The same with a space: "Lit les" is 7 characters; with a limit of 7 it stays.
    let seven = SkillCatalogBudget(tokens: 10, descriptionCharacterLimit: 7)
    #expect(seven.shortened("Lit lés") == "Lit lés")
    // "Lit lés!" is 8: the first 6 are "Lit lé", cut at its space to "Lit", then the ellipsis.
    #expect(seven.shortened("Lit lés!") == "Lit…")
  }

  @Test func `a share of a context window rounds down and clamps`() {
    #expect(SkillCatalogBudget.share(0.02, ofContextWindow: 4_096).tokens == 81)
    #expect(SkillCatalogBudget.share(0.01, ofContextWindow: 128_000).tokens == 1_280)
    #expect(SkillCatalogBudget.share(2, ofContextWindow: 100).tokens == 100)
    #expect(SkillCatalogBudget.share(-1, ofContextWindow: 100).tokens == 0)
    #expect(SkillCatalogBudget.share(.nan, ofContextWindow: 100).tokens == 0)
    #expect(SkillCatalogBudget(tokens: -5).tokens == 0)
  }

  @Test
  func `short descriptions skip step one; below every step the smaller of names only and no skill listed`()
    async throws
  {
    let skills = Skills(
      activations: SkillActivations(), instructions: Instructions("Skills help."),
      skills: [Skill(name: "gamma", description: "Writes release notes.", prompt: "Gamma body.")]
    )
    .catalogBudget(SkillCatalogBudget(tokens: 5, tokenCounter: CatalogWordCounter()))
    // Full: 2 + 8 = 10 words; names only: 2 + 4 = 6; none kept: 2 + 11 = 13.
    // Both are over 5; names only is the smaller, so nothing is left out.
    let listing = try await skills.catalog(active: [])
    #expect(listing.steps == [.namesOnly])
    #expect(listing.text == "Skills help.\n\nSkill: gamma [on demand]")
    #expect(listing.tokenCount == 6)
    #expect(listing.isOverBudget)
    #expect(listing.leftOutSkillNames.isEmpty)
    #expect(listing.note?.counts[.tokensAfter] == 6)
    #expect(listing.note.flatMap { $0.counts[.budget] }.map { $0 < 6 } == true)
  }
}
