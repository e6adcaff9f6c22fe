import ModelSession

/// One skill's line in the catalog, before any step shortens it.
struct SkillCatalogLine: Sendable, Hashable {
  /// The skill's name.
  var name: String
  /// `on demand` or `active`.
  var state: String
  /// The skill's description.
  var description: String

  /// `- name (state): description`.
  var full: String { "- \(name) (\(state)): \(description)" }
  /// `- name (state)`.
  var nameOnly: String { "- \(name) (\(state))" }
}

/// Fits the skills catalog in a budget: the steps of `SkillCatalogBudget`, in
/// their order, each taken only when the one before does not fit.
enum SkillCatalogFitter {
  /// The catalog's text: the lead instruction, a blank line, `Skills:`, the
  /// lines, and the line that says how many skills are not listed when any are not.
  static func text(lead: String, lines: some Sequence<String>, unlisted: Int, toolName: String) -> String {
    var text = lead + "\n\nSkills:"
    for line in lines {
      text += "\n"
      text += line
    }
    if unlisted > 0 {
      text += "\n" + unlistedLine(count: unlisted, toolName: toolName)
    }
    return text
  }

  /// The line that ends a catalog that leaves skills out.
  static func unlistedLine(count: Int, toolName: String) -> String {
    "(\(CountFormatting.grouped(count)) more skill\(count == 1 ? " is" : "s are") not listed; "
      + "\(toolName) takes \(count == 1 ? "its name" : "their names") too.)"
  }

  /// The catalog for `lines` (in name order) within `budget`, or in full when there is none.
  static func fit(
    lead: String, lines: [SkillCatalogLine], toolName: String, budget: SkillCatalogBudget?
  ) async throws -> SkillCatalogListing {
    let names = lines.map(\.name)
    let full = text(lead: lead, lines: lines.lazy.map(\.full), unlisted: 0, toolName: toolName)
    guard let budget else { return SkillCatalogListing(text: full, listedSkillNames: names) }
    let key = toolName + "\n" + full
    if let known = budget.memo.listing(for: key) { return known }
    let listing = try await fitAfresh(
      lead: lead, lines: lines, toolName: toolName, full: full, budget: budget)
    budget.memo.store(listing, for: key)
    return listing
  }

  private static func fitAfresh(
    lead: String, lines: [SkillCatalogLine], toolName: String, full: String, budget: SkillCatalogBudget
  ) async throws -> SkillCatalogListing {
    let names = lines.map(\.name)
    let fullCount = try await count(full, budget.tokenCounter)
    var listing = SkillCatalogListing(
      text: full, tokenCount: fullCount, fullTokenCount: fullCount, budget: budget.tokens,
      listedSkillNames: names)
    if fullCount <= budget.tokens { return listing }

    // Step 1: descriptions cut to their first sentence and the character limit.
    var shortenedCount = 0
    let shortLines = lines.map { line in
      let short = shortened(line.description, characterLimit: budget.descriptionCharacterLimit)
      if short != line.description { shortenedCount += 1 }
      return "- \(line.name) (\(line.state)): \(short)"
    }
    if shortenedCount > 0 {
      listing.steps.append(
        .descriptionsShortened(count: shortenedCount, characterLimit: budget.descriptionCharacterLimit))
      listing.text = text(lead: lead, lines: shortLines, unlisted: 0, toolName: toolName)
      listing.tokenCount = try await count(listing.text, budget.tokenCounter)
      if let tokens = listing.tokenCount, tokens <= budget.tokens { return listing }
    }

    // Step 2: names and states only.
    let nameLines = lines.map(\.nameOnly)
    listing.steps.append(.namesOnly)
    listing.text = text(lead: lead, lines: nameLines, unlisted: 0, toolName: toolName)
    listing.tokenCount = try await count(listing.text, budget.tokenCounter)
    if let tokens = listing.tokenCount, tokens <= budget.tokens { return listing }

    // Step 3: the first `kept` names-only lines, in name order, and a line for the rest.
    // The largest `kept` that fits, found by halving (a catalog with fewer lines
    // never takes more tokens). When not even the lead instruction fits, the
    // smaller of the names-only catalog and the one that lists no skill.
    var fitting: (kept: Int, text: String, tokens: Int)?
    var low = 0
    var high = lines.count - 1
    while low <= high {
      let kept = (low + high) / 2
      let candidate = text(
        lead: lead, lines: nameLines[..<kept], unlisted: lines.count - kept, toolName: toolName)
      let tokens = try await count(candidate, budget.tokenCounter)
      if tokens <= budget.tokens {
        fitting = (kept, candidate, tokens)
        low = kept + 1
      } else {
        high = kept - 1
      }
    }
    if fitting == nil {
      let bare = text(lead: lead, lines: [String](), unlisted: lines.count, toolName: toolName)
      let bareTokens = try await count(bare, budget.tokenCounter)
      if let namesOnlyTokens = listing.tokenCount, namesOnlyTokens <= bareTokens { return listing }
      fitting = (0, bare, bareTokens)
    }
    guard let fitting else { return listing }
    listing.text = fitting.text
    listing.tokenCount = fitting.tokens
    listing.listedSkillNames = Array(names[..<fitting.kept])
    listing.steps.append(.skillsLeftOut(Array(names[fitting.kept...])))
    return listing
  }

  private static func count(_ text: String, _ counter: any TokenCounter) async throws -> Int {
    try await counter.tokenCount(of: .text(Transcript.TextSegment(id: "skills-catalog", content: text)))
  }

  /// The description's first sentence, white space made single spaces, within
  /// `characterLimit` characters (see `SkillCatalogBudget.shortened(_:)`).
  static func shortened(_ description: String, characterLimit: Int) -> String {
    var sentence = ""
    var pendingSpace = false
    var previousEndsSentence = false
    for character in description {
      if character.isWhitespace {
        if previousEndsSentence { break }
        pendingSpace = !sentence.isEmpty
        continue
      }
      if pendingSpace {
        sentence.append(" ")
        pendingSpace = false
      }
      sentence.append(character)
      previousEndsSentence = character == "." || character == "!" || character == "?"
    }
    guard sentence.count > characterLimit else { return sentence }
    let limit = max(1, characterLimit - 1)
    var cut = String(sentence.prefix(limit))
    if let space = cut.lastIndex(of: " "), space > cut.startIndex {
      cut = String(cut[..<space])
    }
    return cut + "…"
  }
}
