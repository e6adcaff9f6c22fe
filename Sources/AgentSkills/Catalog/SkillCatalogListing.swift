import ModelSession

/// The skills catalog as the model reads it, and what its budget did to it.
///
/// `Skills.catalog(active:)` makes one; `contextkit skills catalog --budget N`
/// prints one.
public struct SkillCatalogListing: Sendable, Hashable {
  /// One step taken to fit the catalog in its budget, in the order they are taken.
  public enum Step: Sendable, Hashable, CustomStringConvertible {
    /// Descriptions were cut to their first sentence and to `characterLimit`
    /// characters; `count` of them got shorter.
    case descriptionsShortened(count: Int, characterLimit: Int)
    /// Blocks give names and states only (an active skill keeps its instructions).
    case namesOnly
    /// These skills, the last in catalog order that are not active, are not
    /// listed (the activation tool still takes them).
    case skillsLeftOut([String])

    /// The step, for a person: `names only`.
    public var description: String {
      switch self {
      case .descriptionsShortened(let count, let limit):
        "\(CountFormatting.grouped(count)) description\(count == 1 ? "" : "s") shortened "
          + "to the first sentence and at most \(CountFormatting.grouped(limit)) characters"
      case .namesOnly:
        "names only"
      case .skillsLeftOut(let names):
        "\(CountFormatting.grouped(names.count)) skill\(names.count == 1 ? "" : "s") left out"
          + (names.first.map { ", the last in catalog order from \($0) on" } ?? "")
      }
    }
  }

  /// The catalog's text: exactly what the model reads in the instructions.
  public var text: String
  /// The tokens `text` takes by the budget's counter; `nil` when there is no budget.
  public var tokenCount: Int?
  /// The tokens the full catalog (no step taken) takes; `nil` when there is no budget.
  public var fullTokenCount: Int?
  /// The budget, in tokens; `nil` when there is none.
  public var budget: Int?
  /// The steps taken, in order; empty when the full catalog fits or there is no budget.
  public var steps: [Step]
  /// The skills that have a block, in catalog order.
  public var listedSkillNames: [String]

  /// The skills the catalog leaves out, in catalog order (the activation tool still takes them).
  public var leftOutSkillNames: [String] {
    for case .skillsLeftOut(let names) in steps { return names }
    return []
  }

  /// Whether the catalog is over its budget even with every step taken: the
  /// budget is smaller than the lead instruction, the active skills'
  /// instructions and the paragraph that says no other skill is listed. The catalog is then the smaller of that and the names-only catalog.
  public var isOverBudget: Bool {
    guard let tokenCount, let budget else { return false }
    return tokenCount > budget
  }

  /// Creates a listing.
  ///
  /// - Parameters:
  ///   - text: The catalog's text.
  ///   - tokenCount: The tokens `text` takes, when counted.
  ///   - fullTokenCount: The tokens the full catalog takes, when counted.
  ///   - budget: The budget, in tokens, when there is one.
  ///   - steps: The steps taken, in order.
  ///   - listedSkillNames: The skills that have a line.
  public init(
    text: String, tokenCount: Int? = nil, fullTokenCount: Int? = nil, budget: Int? = nil, steps: [Step] = [],
    listedSkillNames: [String]
  ) {
    self.text = text
    self.tokenCount = tokenCount
    self.fullTokenCount = fullTokenCount
    self.budget = budget
    self.steps = steps
    self.listedSkillNames = listedSkillNames
  }

  /// The generation note that reports the steps, or `nil` when none was taken.
  ///
  /// For example: `catalog of 1,000 skills over its budget of 2,000 tokens
  /// (31,002 tokens in full): 1,000 descriptions shortened to …; names only;
  /// 742 skills left out, the last in catalog order from mango-skill on; the catalog
  /// now takes 1,996 tokens; skills left out can still be activated by name`.
  public var note: GenerationNote? {
    guard !steps.isEmpty, let budget else { return nil }
    var counts: [GenerationNote.Field: Int] = [
      .skills: listedSkillNames.count + leftOutSkillNames.count, .budget: budget,
    ]
    counts[.tokensBefore] = fullTokenCount
    counts[.tokensAfter] = tokenCount
    var stepNames: [String] = []
    for step in steps {
      switch step {
      case .descriptionsShortened(let count, let limit):
        stepNames.append("descriptionsShortened")
        counts[.descriptionsShortened] = count
        counts[.characterLimit] = limit
      case .namesOnly: stepNames.append("namesOnly")
      case .skillsLeftOut: stepNames.append("skillsLeftOut")
      }
    }
    var names: [GenerationNote.Field: [String]] = [.steps: stepNames]
    if !leftOutSkillNames.isEmpty { names[.leftOut] = leftOutSkillNames }
    var note = GenerationNote(
      source: "skills", kind: .catalogTrimmed, message: "", names: names, counts: counts)
    note.message = Self.message(for: note)
    return note
  }

  /// The message of a `catalogTrimmed` note, from its fields.
  static func message(for note: GenerationNote) -> String {
    let skillCount = note.counts[.skills] ?? 0
    let budget = note.counts[.budget] ?? 0
    var message =
      "catalog of \(CountFormatting.grouped(skillCount)) skill\(skillCount == 1 ? "" : "s") over its budget "
      + "of \(CountFormatting.grouped(budget)) tokens"
    if let full = note.counts[.tokensBefore] {
      message += " (\(CountFormatting.grouped(full)) tokens in full)"
    }
    let steps: [Step] = note.names(.steps).compactMap { name in
      switch name {
      case "descriptionsShortened":
        .descriptionsShortened(
          count: note.counts[.descriptionsShortened] ?? 0, characterLimit: note.counts[.characterLimit] ?? 0)
      case "namesOnly": .namesOnly
      case "skillsLeftOut": .skillsLeftOut(note.names(.leftOut))
      default: nil
      }
    }
    message += ": " + steps.map(\.description).joined(separator: "; ")
    if let tokenCount = note.counts[.tokensAfter] {
      message += "; the catalog now takes \(CountFormatting.grouped(tokenCount)) tokens"
      if tokenCount > budget { message += ", still over the budget: no smaller catalog is possible" }
    }
    if !note.names(.leftOut).isEmpty { message += "; skills left out can still be activated by name" }
    return message
  }
}
