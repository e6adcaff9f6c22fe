import ModelSession

/// One skill's line in the catalog, before any step shortens it.
struct SkillCatalogLine: Sendable, Hashable {
  /// The skill's name.
  var name: String
  /// `on demand` or `active`.
  var state: String
  /// The skill's description.
  var description: String

  /// Appends `- name (state): description` to `bytes`, or `- name (state)`
  /// when `description` is `nil`.
  func write(description: String?, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: "- ".utf8)
    bytes.append(contentsOf: name.utf8)
    bytes.append(contentsOf: " (".utf8)
    bytes.append(contentsOf: state.utf8)
    bytes.append(UInt8(ascii: ")"))
    if let description {
      bytes.append(contentsOf: ": ".utf8)
      bytes.append(contentsOf: description.utf8)
    }
  }
}

/// Fits the skills catalog in a budget: the steps of `SkillCatalogBudget`, in
/// their order, each taken only when the one before does not fit.
enum SkillCatalogFitter {
  /// The catalog's text: the lead instruction, a blank line, `Skills:`, one
  /// line per skill (`- name (state): description`, or `- name (state)` when
  /// `descriptions` is `nil`; otherwise `descriptions[i]` is line `i`'s), and
  /// the line that says how many skills are not listed when any are not.
  static func text(
    lead: String, lines: [SkillCatalogLine], descriptions: [String]?, unlisted: Int, toolName: String
  ) -> String {
    textWithLineEnds(
      lead: lead, lines: lines, descriptions: descriptions, unlisted: unlisted, toolName: toolName
    ).text
  }

  /// `text(lead:lines:descriptions:unlisted:toolName:)`, and for every line
  /// the UTF-8 offset where the text up to that line ends (`lineEnds[k - 1]`
  /// for the first `k` lines; `headerEnd` for none), so that the catalog of a
  /// prefix of the lines is a cut of this text, not a new one.
  static func textWithLineEnds(
    lead: String, lines: [SkillCatalogLine], descriptions: [String]?, unlisted: Int, toolName: String
  ) -> (text: String, headerEnd: Int, lineEnds: [Int]) {
    let unlistedText = unlisted > 0 ? "\n" + unlistedLine(count: unlisted, toolName: toolName) : ""
    let header = lead + "\n\nSkills:"
    // Bytes, then one String: building a String per line took most of a 1,000-skill fit.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(
      header.utf8.count + unlistedText.utf8.count
        + lines.indices.reduce(0) { total, index in
          total + 8 + lines[index].name.utf8.count + lines[index].state.utf8.count
            + (descriptions?[index].utf8.count ?? 0)
        })
    bytes.append(contentsOf: header.utf8)
    let headerEnd = bytes.count
    var lineEnds: [Int] = []
    lineEnds.reserveCapacity(lines.count)
    for index in lines.indices {
      bytes.append(UInt8(ascii: "\n"))
      lines[index].write(description: descriptions?[index], to: &bytes)
      lineEnds.append(bytes.count)
    }
    bytes.append(contentsOf: unlistedText.utf8)
    return (String(decoding: bytes, as: UTF8.self), headerEnd, lineEnds)
  }

  /// The catalog listing only the first lines of `listing` (cut at `end`, a
  /// line end of `textWithLineEnds`), with the line for the `unlisted` rest.
  static func prefix(
    of listing: String, endingAt end: Int, unlisted: Int, toolName: String
  ) -> String {
    var text = String(decoding: listing.utf8.prefix(end), as: UTF8.self)
    if unlisted > 0 { text += "\n" + unlistedLine(count: unlisted, toolName: toolName) }
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
    let full = text(
      lead: lead, lines: lines, descriptions: lines.map(\.description), unlisted: 0, toolName: toolName)
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
      let short = shortened(line.description, characterLimit: budget.descriptionCharacterLimit)
      if short != line.description { shortenedCount += 1 }
      return short
    }
    if shortenedCount > 0 {
      listing.steps.append(
        .descriptionsShortened(count: shortenedCount, characterLimit: budget.descriptionCharacterLimit))
      listing.text = text(
        lead: lead, lines: lines, descriptions: shortDescriptions, unlisted: 0, toolName: toolName)
      listing.tokenCount = try await count(listing.text, budget.tokenCounter)
      if let tokens = listing.tokenCount, tokens <= budget.tokens { return listing }
    }

    // Step 2: names and states only.
    listing.steps.append(.namesOnly)
    let namesOnly = textWithLineEnds(
      lead: lead, lines: lines, descriptions: nil, unlisted: 0, toolName: toolName)
    listing.text = namesOnly.text
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
      let candidate = prefix(
        of: namesOnly.text, endingAt: kept == 0 ? namesOnly.headerEnd : namesOnly.lineEnds[kept - 1],
        unlisted: lines.count - kept, toolName: toolName)
      let tokens = try await count(candidate, budget.tokenCounter)
      if tokens <= budget.tokens {
        fitting = (kept, candidate, tokens)
        low = kept + 1
      } else {
        high = kept - 1
      }
    }
    if fitting == nil {
      let bare = text(lead: lead, lines: [], descriptions: nil, unlisted: lines.count, toolName: toolName)
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
