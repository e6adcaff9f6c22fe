import ContextKit

/// What `contextkit skills catalog --budget N` adds: the budget, the catalog's
/// tokens, and the steps taken to fit it.
///
/// `--json` shape (every key always present): `{"tokens", "catalogTokens",
/// "fullCatalogTokens", "overBudget", "steps": ["descriptionsShortened" |
/// "namesOnly" | "skillsLeftOut"], "shortenedDescriptions", "listedSkills",
/// "leftOutSkills", "note": String or null}`.
struct CatalogBudgetReport: Encodable {
  var tokens: Int
  var catalogTokens: Int
  var fullCatalogTokens: Int
  var overBudget: Bool
  var steps: [String]
  var shortenedDescriptions: Int
  var listedSkills: [String]
  var leftOutSkills: [String]
  var note: String?

  /// The token counter the command counts with, for a person.
  static let counterDescription = "estimated at 4 bytes a token"

  init(_ listing: SkillCatalogListing, budget: Int) {
    tokens = budget
    catalogTokens = listing.tokenCount ?? 0
    fullCatalogTokens = listing.fullTokenCount ?? 0
    overBudget = listing.isOverBudget
    steps = listing.steps.map(Self.name(of:))
    shortenedDescriptions = 0
    for case .descriptionsShortened(let count, _) in listing.steps { shortenedDescriptions = count }
    listedSkills = listing.listedSkillNames
    leftOutSkills = listing.leftOutSkillNames
    note = listing.note?.message
  }

  private enum CodingKeys: String, CodingKey {
    case tokens, catalogTokens, fullCatalogTokens, overBudget, steps, shortenedDescriptions, listedSkills
    case leftOutSkills, note
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(tokens, forKey: .tokens)
    try container.encode(catalogTokens, forKey: .catalogTokens)
    try container.encode(fullCatalogTokens, forKey: .fullCatalogTokens)
    try container.encode(overBudget, forKey: .overBudget)
    try container.encode(steps, forKey: .steps)
    try container.encode(shortenedDescriptions, forKey: .shortenedDescriptions)
    try container.encode(listedSkills, forKey: .listedSkills)
    try container.encode(leftOutSkills, forKey: .leftOutSkills)
    try container.encode(note, forKey: .note)
  }

  private static func name(of step: SkillCatalogListing.Step) -> String {
    switch step {
    case .descriptionsShortened: "descriptionsShortened"
    case .namesOnly: "namesOnly"
    case .skillsLeftOut: "skillsLeftOut"
    }
  }

  /// The lines the text output ends with: the budget and counts, then one line a step.
  static func lines(for listing: SkillCatalogListing, budget: Int) -> [String] {
    let catalog = listing.tokenCount ?? 0
    let full = listing.fullTokenCount ?? 0
    var lines = ["budget: \(budget) tokens (\(counterDescription))"]
    if listing.steps.isEmpty {
      lines.append("the catalog fits in full: \(catalog) tokens; no step taken")
      return lines
    }
    lines.append(
      "the catalog takes \(catalog) tokens, \(full) in full"
        + (listing.isOverBudget ? "; still over the budget: no smaller catalog is possible" : ""))
    for (index, step) in listing.steps.enumerated() {
      var line = "step \(index + 1): \(step)"
      if case .skillsLeftOut(let names) = step { line += ": " + names.joined(separator: ", ") }
      lines.append(line)
    }
    return lines
  }
}
