import AgentSkills
import ModelSession

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

/// Six skills whose catalog is counted by hand with `CatalogWordCounter`
/// (blank lines between blocks are white space, no words):
///
/// - the lead `Skills help.`: 2 words;
/// - a block is `Skill: NAME [on demand]` (4 words) and `Description: …` (1 word and the description's);
/// - alpha: `Reviews SQL for injection. Use it before a merge.` 9, so 14; shortened to
///   `Reviews SQL for injection.` 4, so 9;
/// - beta: `Formats Swift code. Run it on save.` 7, so 12; shortened 3, so 8;
/// - gamma: `Writes release notes.` 3, so 8, already one sentence;
/// - delta, epsilon, zeta: two-word descriptions, 7 words a block, already one sentence;
/// - names only: `Skill: NAME [on demand]`, 4 words a block;
/// - the closing paragraph `(N more skills are not listed; activate_skill takes their names too.)`: 11.
///
/// So: full 2 + 14 + 12 + 8 + 21 = 57, shortened 2 + 9 + 8 + 8 + 21 = 48,
/// names only 2 + 6 × 4 = 26, and with `k` skills kept 2 + 4k + 11: 25 for
/// three, 21 for two, 17 for one, 13 for none. The catalog keeps the order
/// the skills are given in: gamma, alpha, zeta, beta, epsilon, delta.
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

let handCountedNames = ["gamma", "alpha", "zeta", "beta", "epsilon", "delta"]

/// The catalog of `handCountedSkills` with every description cut to its first sentence:
/// 48 tokens by hand (see `handCountedSkills`), what a budget one short of the full 57 gets.
let handCountedFirstSentences = """
  Skills help.

  Skill: gamma [on demand]
  Description: Writes release notes.

  Skill: alpha [on demand]
  Description: Reviews SQL for injection.

  Skill: zeta [on demand]
  Description: Tags releases.

  Skill: beta [on demand]
  Description: Formats Swift code.

  Skill: epsilon [on demand]
  Description: Sorts imports.

  Skill: delta [on demand]
  Description: Checks links.
  """

/// The catalog of `handCountedSkills` with names only: 26 tokens by hand, what a budget
/// under the shortened 48 and at least 26 gets.
let handCountedNamesOnly = """
  Skills help.

  Skill: gamma [on demand]

  Skill: alpha [on demand]

  Skill: zeta [on demand]

  Skill: beta [on demand]

  Skill: epsilon [on demand]

  Skill: delta [on demand]
  """
