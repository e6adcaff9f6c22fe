import AgentSkills
import ModelSession
import Testing

/// Counts one token per word of text (runs of white space separate words),
/// so that a test can count a catalog by hand; the other parts count 1 each.
struct CatalogWordCounter: TokenCounter {
  func tokenCount(of segment: Transcript.Segment) -> Int {
    guard case .text(let text) = segment else { return 1 }
    return text.content.split(whereSeparator: \.isWhitespace).count
  }

  func tokenCount(of entry: Transcript.Entry) -> Int {
    entry.segments.reduce(0) { $0 + tokenCount(of: $1) }
  }

  func tokenCount(of toolDefinition: Transcript.ToolDefinition) -> Int { 1 }

  func tokenCount(of request: LanguageModelExecutorGenerationRequest) -> Int {
    request.transcript.reduce(0) { $0 + tokenCount(of: $1) }
  }

  func tokenCounts(of entries: [Transcript.Entry]) -> [Int] {
    entries.map { tokenCount(of: $0) }
  }
}

/// Six skills whose catalog is counted by hand with `CatalogWordCounter`:
///
/// - header `Skills help.` / blank / `Skills:`: 3 words;
/// - alpha: `- alpha (on demand): Reviews SQL for injection. Use it before a merge.`
///   13 words, shortened to `…: Reviews SQL for injection.` 8;
/// - beta: `- beta (on demand): Formats Swift code. Run it on save.` 11, shortened 7;
/// - gamma: `- gamma (on demand): Writes release notes.` 7, already one sentence;
/// - delta, epsilon, zeta: two-word descriptions, 6 words each, already one sentence;
/// - names only: `- name (on demand)`, 4 words a line;
/// - the closing line `(N more skills are not listed; activate_skill takes their names too.)`: 11.
///
/// So: full 3 + 13 + 11 + 7 + 18 = 52, shortened 3 + 8 + 7 + 7 + 18 = 43,
/// names only 3 + 6 × 4 = 27, and with `k` skills kept 3 + 4k + 11: 26 for
/// three, 22 for two, 18 for one, 14 for none. Name order: alpha, beta,
/// delta, epsilon, gamma, zeta.
func handCountedSkills(budget: Int?, activations: SkillActivations = SkillActivations()) -> Skills {
  Skills(
    activations: activations, instructions: Instructions("Skills help."),
    skills: [
      Skill(name: "gamma", description: "Writes release notes.", prompt: "Gamma body."),
      Skill(
        name: "alpha", description: "Reviews SQL for injection. Use it before a merge.", prompt: "Alpha body."
      ),
      Skill(name: "zeta", description: "Tags releases.", prompt: "Zeta body."),
      Skill(name: "beta", description: "Formats Swift code. Run it on save.", prompt: "Beta body."),
      Skill(name: "epsilon", description: "Sorts imports.", prompt: "Epsilon body."),
      Skill(name: "delta", description: "Checks links.", prompt: "Delta body."),
    ]
  )
  .catalogBudget(budget.map { SkillCatalogBudget(tokens: $0, tokenCounter: CatalogWordCounter()) })
}

let handCountedNames = ["alpha", "beta", "delta", "epsilon", "gamma", "zeta"]

@Suite(.timeLimit(.minutes(10))) struct `Catalog budget fitting` {
  let full = """
    Skills help.

    Skills:
    - alpha (on demand): Reviews SQL for injection. Use it before a merge.
    - beta (on demand): Formats Swift code. Run it on save.
    - delta (on demand): Checks links.
    - epsilon (on demand): Sorts imports.
    - gamma (on demand): Writes release notes.
    - zeta (on demand): Tags releases.
    """

  @Test func `with no budget, or a budget the full catalog fits, nothing changes`() async throws {
    for budget in [nil, 52, 1_000] {
      let listing = try await handCountedSkills(budget: budget).catalog(active: [])
      #expect(listing.text == full)
      #expect(listing.steps.isEmpty)
      #expect(listing.note == nil)
      #expect(listing.tokenCount == budget.map { _ in 52 })
      #expect(listing.listedSkillNames == handCountedNames)
    }
  }

  @Test func `one token short: descriptions are cut to their first sentence`() async throws {
    let listing = try await handCountedSkills(budget: 51).catalog(active: [])
    #expect(
      listing.text == """
        Skills help.

        Skills:
        - alpha (on demand): Reviews SQL for injection.
        - beta (on demand): Formats Swift code.
        - delta (on demand): Checks links.
        - epsilon (on demand): Sorts imports.
        - gamma (on demand): Writes release notes.
        - zeta (on demand): Tags releases.
        """)
    #expect(listing.steps == [.descriptionsShortened(count: 2, characterLimit: 80)])
    #expect(listing.tokenCount == 43)
    #expect(listing.fullTokenCount == 52)
    #expect(listing.leftOutSkillNames.isEmpty)
  }

  @Test func `shortened descriptions that take exactly the budget stop at step one`() async throws {
    // Shortened: 3 + 8 + 7 + 7 + 18 = 43 words; a budget of 43 is not exceeded.
    let listing = try await handCountedSkills(budget: 43).catalog(active: [])
    #expect(listing.steps == [.descriptionsShortened(count: 2, characterLimit: 80)])
    #expect(listing.tokenCount == 43)
    #expect(listing.text.contains("- alpha (on demand): Reviews SQL for injection.\n"), "\(listing.text)")
    #expect(listing.listedSkillNames == handCountedNames)
  }

  @Test func `when shortened descriptions do not fit, names only; 27 tokens fit exactly`() async throws {
    for budget in [42, 27] {
      let listing = try await handCountedSkills(budget: budget).catalog(active: [])
      #expect(
        listing.text == """
          Skills help.

          Skills:
          - alpha (on demand)
          - beta (on demand)
          - delta (on demand)
          - epsilon (on demand)
          - gamma (on demand)
          - zeta (on demand)
          """)
      #expect(listing.steps == [.descriptionsShortened(count: 2, characterLimit: 80), .namesOnly])
      #expect(listing.tokenCount == 27)
    }
  }

  @Test func `then skills are left out from the end of name order, as few as fit`() async throws {
    let expectations: [(budget: Int, kept: [String], tokens: Int)] = [
      (26, ["alpha", "beta", "delta"], 26), (25, ["alpha", "beta"], 22), (22, ["alpha", "beta"], 22),
      (21, ["alpha"], 18), (18, ["alpha"], 18), (17, [], 14), (14, [], 14),
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
    let two = try await handCountedSkills(budget: 22).catalog(active: [])
    #expect(
      two.text == """
        Skills help.

        Skills:
        - alpha (on demand)
        - beta (on demand)
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
  /// header `Lead.` + blank line + `Skills:` 14; a names-only line
  /// `\n- <name> (on demand)` 3 + 60 + 12 = 75, so names only 14 + 225 = 239;
  /// two lines and `\n(1 more skill is not listed; activate_skill takes its name too.)`
  /// (1 + 64) 14 + 150 + 65 = 229; one line and the 69-character line for two,
  /// 14 + 75 + 70 = 159.
  @Test func `all skills but one are kept when that is what fits`() async throws {
    let names = [
      "first-" + String(repeating: "a", count: 54), "second-" + String(repeating: "b", count: 53),
      "third-" + String(repeating: "c", count: 54),
    ]
    for (budget, kept, tokens) in [(238, 2, 229), (229, 2, 229), (228, 1, 159)] {
      let skills = Skills(
        activations: SkillActivations(), instructions: Instructions("Lead."),
        skills: names.map { Skill(name: $0, description: "Does one thing.", prompt: "Body.") }
      ).catalogBudget(SkillCatalogBudget(tokens: budget, tokenCounter: CharacterCounter()))
      let listing = try await skills.catalog(active: [])
      #expect(listing.fullTokenCount == 290, "budget \(budget)")
      #expect(listing.listedSkillNames == Array(names.prefix(kept)), "budget \(budget)")
      #expect(listing.tokenCount == tokens, "budget \(budget)")
      #expect(
        listing.steps == [.namesOnly, .skillsLeftOut(Array(names.dropFirst(kept)))], "budget \(budget)")
    }
  }

  @Test func `a budget below the lead instruction lists no skill and says it is still over`() async throws {
    let listing = try await handCountedSkills(budget: 13).catalog(active: [])
    #expect(
      listing.text == """
        Skills help.

        Skills:
        (6 more skills are not listed; activate_skill takes their names too.)
        """)
    #expect(listing.tokenCount == 14)
    #expect(listing.isOverBudget)
    let note = try #require(listing.note)
    #expect(note.message.contains("the catalog now takes 14 tokens, still over the budget"))
    #expect(listing.steps.last == .skillsLeftOut(handCountedNames))
  }

  /// Names only and no skill listed can take the same tokens: two prompt skills
  /// (`- alpha (on demand)`, 4 words each) and an active instructions skill
  /// (`- gamma (active)`, 3 words) make names only 3 + 4 + 4 + 3 = 14 words, and
  /// the header with `(3 more skills are not listed; activate_skill takes their
  /// names too.)` is 3 + 11 = 14 too. Under a budget of 13 neither fits, and
  /// the tie keeps the catalog that lists every skill.
  @Test func `when names only and no skill listed tie over the budget, names only is kept`() async throws {
    let skills = Skills(
      activations: SkillActivations(), instructions: Instructions("Skills help."),
      skills: [
        Skill(name: "alpha", description: "Checks links.", prompt: "Alpha body."),
        Skill(name: "beta", description: "Sorts imports.", prompt: "Beta body."),
        Skill(name: "gamma", description: "House tone.", instructions: "Write warmly."),
      ]
    ).catalogBudget(SkillCatalogBudget(tokens: 13, tokenCounter: CatalogWordCounter()))
    let listing = try await skills.catalog(active: ["gamma"])
    #expect(
      listing.text == """
        Skills help.

        Skills:
        - alpha (on demand)
        - beta (on demand)
        - gamma (active)
        """)
    #expect(listing.tokenCount == 14)
    #expect(listing.steps == [.namesOnly])
    #expect(listing.listedSkillNames == ["alpha", "beta", "gamma"])
    #expect(listing.isOverBudget)
  }

  @Test func `the note names every step, the counts and where the left-out skills start`() async throws {
    let note = try #require(try await handCountedSkills(budget: 18).catalog(active: []).note)
    #expect(note.kind == .catalogTrimmed)
    #expect(note.source == "skills")
    #expect(
      note.message
        == "catalog of 6 skills over its budget of 18 tokens (52 tokens in full): 2 descriptions shortened "
        + "to the first sentence and at most 80 characters; names only; 5 skills left out, the last in name "
        + "order from beta on; the catalog now takes 18 tokens; skills left out can still be activated by name"
    )
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
    .catalogBudget(SkillCatalogBudget(tokens: 6, tokenCounter: CatalogWordCounter()))
    // Full: 3 + 7 = 10 words; names only: 3 + 4 = 7; none kept: 3 + 11 = 14.
    // Both are over 6; names only is the smaller, so nothing is left out.
    let listing = try await skills.catalog(active: [])
    #expect(listing.steps == [.namesOnly])
    #expect(listing.text == "Skills help.\n\nSkills:\n- gamma (on demand)")
    #expect(listing.tokenCount == 7)
    #expect(listing.isOverBudget)
    #expect(listing.leftOutSkillNames.isEmpty)
    #expect(listing.note?.message.contains("still over the budget") == true)
  }
}
