import ModelSession

/// One skill's block in the catalog, before any step shortens it.
///
/// ```text
/// Skill: NAME [on demand]        Skill: NAME [inactive]        Skill: NAME [active]
/// Description: DESCRIPTION       Description: DESCRIPTION      INSTRUCTIONS
/// ```
struct SkillCatalogLine: Sendable, Hashable {
  /// What the catalog says about the skill.
  enum State: Sendable, Hashable {
    /// A prompt skill: its body is delivered when it is called for, nothing stays on.
    case onDemand
    /// An instructions skill that is off.
    case inactive
    /// An instructions skill that is on, with its instructions, which stand in
    /// for the description and which no budget step shortens or leaves out.
    case active(instructions: String)

    /// The label in brackets.
    var label: String {
      switch self {
      case .onDemand: "on demand"
      case .inactive: "inactive"
      case .active: "active"
      }
    }
  }

  /// The skill's name.
  var name: String
  /// What the catalog says about it.
  var state: State
  /// The skill's description.
  var description: String

  /// Whether the block is the skill's instructions, which budget steps leave alone.
  var isActive: Bool {
    if case .active = state { true } else { false }
  }

  /// Appends the block to `bytes`: `Skill: name [state]`, then the
  /// instructions of an active skill, or `Description: …` when `description`
  /// is not `nil`.
  func write(description: String?, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: "Skill: ".utf8)
    bytes.append(contentsOf: name.utf8)
    bytes.append(contentsOf: " [".utf8)
    bytes.append(contentsOf: state.label.utf8)
    bytes.append(UInt8(ascii: "]"))
    if case .active(let instructions) = state {
      bytes.append(UInt8(ascii: "\n"))
      bytes.append(contentsOf: instructions.utf8)
    } else if let description {
      bytes.append(contentsOf: "\nDescription: ".utf8)
      bytes.append(contentsOf: description.utf8)
    }
  }
}

/// Fits the skills catalog in a budget: the steps of `SkillCatalogBudget`, in
/// their order, each taken only when the one before does not fit. The blocks
/// of active skills are never shortened nor left out.
enum SkillCatalogFitter {
  /// The catalog's text: the lead instruction, then each block after a blank
  /// line (`descriptions[i]` is block `i`'s description, or none at all when
  /// `descriptions` is `nil`), leaving out the blocks whose index is in
  /// `unlisted`, then the paragraph that says how many skills are not listed
  /// when any are not.
  static func text(
    lead: String, lines: [SkillCatalogLine], descriptions: [String]?, unlisted: Set<Int> = [],
    toolName: String
  ) -> String {
    // Bytes, then one String: building a String per block took most of a 1,000-skill fit.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(
      lead.utf8.count + 80
        + lines.indices.reduce(0) { total, index in
          total + 32 + lines[index].name.utf8.count + (descriptions?[index].utf8.count ?? 0)
        })
    bytes.append(contentsOf: lead.utf8)
    func separate() {
      if !bytes.isEmpty { bytes.append(contentsOf: "\n\n".utf8) }
    }
    for index in lines.indices where !unlisted.contains(index) {
      separate()
      lines[index].write(description: descriptions?[index], to: &bytes)
    }
    if !unlisted.isEmpty {
      separate()
      bytes.append(contentsOf: unlistedLine(count: unlisted.count, toolName: toolName).utf8)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The paragraph that ends a catalog that leaves skills out.
  static func unlistedLine(count: Int, toolName: String) -> String {
    "(\(CountFormatting.grouped(count)) more skill\(count == 1 ? " is" : "s are") not listed; "
      + "\(toolName) takes \(count == 1 ? "its name" : "their names") too.)"
  }

  /// The catalog for `lines` (in catalog order) within `budget`, or in full when there is none.
  static func fit(
    lead: String, lines: [SkillCatalogLine], toolName: String, budget: SkillCatalogBudget?
  ) async throws -> SkillCatalogListing {
    let names = lines.map(\.name)
    let full = text(lead: lead, lines: lines, descriptions: lines.map(\.description), toolName: toolName)
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
    let shortDescriptions = lines.map { line in
      guard !line.isActive else { return line.description }
      let short = shortened(line.description, characterLimit: budget.descriptionCharacterLimit)
      if short != line.description { shortenedCount += 1 }
      return short
    }
    if shortenedCount > 0 {
      listing.steps.append(
        .descriptionsShortened(count: shortenedCount, characterLimit: budget.descriptionCharacterLimit))
      listing.text = text(lead: lead, lines: lines, descriptions: shortDescriptions, toolName: toolName)
      listing.tokenCount = try await count(listing.text, budget.tokenCounter)
      if let tokens = listing.tokenCount, tokens <= budget.tokens { return listing }
    }

    // Step 2: names and states only (an active skill keeps its instructions).
    listing.steps.append(.namesOnly)
    listing.text = text(lead: lead, lines: lines, descriptions: nil, toolName: toolName)
    listing.tokenCount = try await count(listing.text, budget.tokenCounter)
    if let tokens = listing.tokenCount, tokens <= budget.tokens { return listing }

    // Step 3: skills that are not active left out, from the end of the catalog.
    return try await leavingSkillsOut(
      lead: lead, lines: lines, toolName: toolName, budget: budget, namesOnly: listing)
  }

  /// The catalog with the first `kept` names-only blocks of skills that are not
  /// active, in catalog order, and a paragraph for the rest: the largest `kept`
  /// that fits, found by halving (a catalog with fewer blocks never takes more
  /// tokens). When not even that fits with none kept, the smaller of the
  /// names-only catalog (`namesOnly`) and the one that lists no such skill.
  private static func leavingSkillsOut(
    lead: String, lines: [SkillCatalogLine], toolName: String, budget: SkillCatalogBudget,
    namesOnly listing: SkillCatalogListing
  ) async throws -> SkillCatalogListing {
    let names = lines.map(\.name)
    let optional = lines.indices.filter { !lines[$0].isActive }
    func leavingOut(keeping kept: Int) -> Set<Int> { Set(optional[kept...]) }
    var fitting: (kept: Int, text: String, tokens: Int)?
    var low = 0
    var high = optional.count - 1
    while low <= high {
      let kept = (low + high) / 2
      let candidate = text(
        lead: lead, lines: lines, descriptions: nil, unlisted: leavingOut(keeping: kept), toolName: toolName)
      let tokens = try await count(candidate, budget.tokenCounter)
      if tokens <= budget.tokens {
        fitting = (kept, candidate, tokens)
        low = kept + 1
      } else {
        high = kept - 1
      }
    }
    if fitting == nil, !optional.isEmpty {
      let bare = text(
        lead: lead, lines: lines, descriptions: nil, unlisted: leavingOut(keeping: 0), toolName: toolName)
      let bareTokens = try await count(bare, budget.tokenCounter)
      if let namesOnlyTokens = listing.tokenCount, namesOnlyTokens <= bareTokens { return listing }
      fitting = (0, bare, bareTokens)
    }
    guard let fitting else { return listing }
    let leftOut = leavingOut(keeping: fitting.kept)
    var result = listing
    result.text = fitting.text
    result.tokenCount = fitting.tokens
    result.listedSkillNames = lines.indices.filter { !leftOut.contains($0) }.map { names[$0] }
    result.steps.append(.skillsLeftOut(optional[fitting.kept...].map { names[$0] }))
    return result
  }

  private static func count(_ text: String, _ counter: any TokenCounter) async throws -> Int {
    try await counter.tokenCount(of: .text(Transcript.TextSegment(id: "skills-catalog", content: text)))
  }

  /// The description's first sentence, white space made single spaces, within
  /// `characterLimit` characters (see `SkillCatalogBudget.shortened(_:)`).
  static func shortened(_ description: String, characterLimit: Int) -> String {
    if let ascii = description.utf8.withContiguousStorageIfAvailable({
      shortenedASCII($0, characterLimit: characterLimit)
    }), let ascii {
      return ascii
    }
    var sentence = ""
    var pendingSpace = false
    var previousEndsSentence = false
    var lineBreaksInRun = 0
    for character in description {
      if character.isWhitespace {
        if previousEndsSentence { break }
        if character.isNewline { lineBreaksInRun += 1 }
        // A blank line ends the paragraph, and so the sentence.
        if lineBreaksInRun >= 2 && !sentence.isEmpty { break }
        pendingSpace = !sentence.isEmpty
        continue
      }
      lineBreaksInRun = 0
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

  /// `shortened(_:characterLimit:)` for text whose first sentence is ASCII,
  /// byte by byte: each byte is one character, and the white space test needs
  /// no Unicode property lookup (it took most of a 1,000-skill fit). `nil` as
  /// soon as a byte outside ASCII comes before the sentence ends: such text
  /// takes the general path, which sees characters (a combining mark joins
  /// the byte before it).
  private static func shortenedASCII(_ bytes: UnsafeBufferPointer<UInt8>, characterLimit: Int) -> String? {
    var sentence: [UInt8] = []
    sentence.reserveCapacity(min(bytes.count, characterLimit + 64))
    var previous: UInt8 = 0
    var pendingSpace = false
    var previousEndsSentence = false
    var lineBreaksInRun = 0
    for byte in bytes {
      guard byte < 0x80 else { return nil }
      // Unicode's White_Space in ASCII: tab, line feed, vertical tab, form feed, carriage return, space.
      if byte == 0x20 || (0x09...0x0D).contains(byte) {
        if previousEndsSentence { break }
        // Line breaks as `Character.isNewline` sees them: a CR LF pair is one.
        if (0x0A...0x0D).contains(byte), !(byte == 0x0A && previous == 0x0D) { lineBreaksInRun += 1 }
        if lineBreaksInRun >= 2 && !sentence.isEmpty { break }
        pendingSpace = !sentence.isEmpty
        previous = byte
        continue
      }
      lineBreaksInRun = 0
      previous = byte
      if pendingSpace {
        sentence.append(0x20)
        pendingSpace = false
      }
      sentence.append(byte)
      previousEndsSentence =
        byte == UInt8(ascii: ".") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?")
    }
    guard sentence.count > characterLimit else { return String(decoding: sentence, as: UTF8.self) }
    var cut = sentence[..<max(1, characterLimit - 1)]
    if let space = cut.lastIndex(of: 0x20), space > cut.startIndex {
      cut = cut[..<space]
    }
    return String(decoding: cut, as: UTF8.self) + "…"
  }
}
