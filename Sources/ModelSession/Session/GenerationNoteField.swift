extension GenerationNote {
  /// What a name or a count of a note stands for: `activated` skills,
  /// `entriesDropped`, the `window` in tokens.
  ///
  /// Fields are open, like kinds: a module that writes notes may add its
  /// own. In records, ``GenerationNote/names`` and ``GenerationNote/counts``
  /// are JSON objects keyed by the field's raw value.
  public struct Field: Sendable, Hashable, Codable, RawRepresentable, CodingKeyRepresentable,
    CustomStringConvertible, Comparable
  {
    /// The field's name.
    public var rawValue: String

    /// Creates a field.
    public init(rawValue: String) {
      self.rawValue = rawValue
    }

    /// The field's name, as a dictionary key in records.
    public var codingKey: any CodingKey { GenerationNoteFieldKey(stringValue: rawValue) }

    /// Reads a field from a dictionary key in records.
    public init?<Key: CodingKey>(codingKey: Key) {
      self.init(rawValue: codingKey.stringValue)
    }

    /// The field's name.
    public var description: String { rawValue }

    /// Orders fields by name.
    public static func < (lhs: Field, rhs: Field) -> Bool { lhs.rawValue < rhs.rawValue }

    // Names.

    /// Skills (or other parts) activated.
    public static let activated = Field(rawValue: "activated")
    /// Skills deactivated.
    public static let deactivated = Field(rawValue: "deactivated")
    /// Skills (or tools) added.
    public static let added = Field(rawValue: "added")
    /// Skills (or tools) removed.
    public static let removed = Field(rawValue: "removed")
    /// Skills whose description changed.
    public static let edited = Field(rawValue: "edited")
    /// Tools whose definition changed.
    public static let tools = Field(rawValue: "tools")
    /// Prompt skills delivered because the prompt named them (`/name`).
    public static let deliveredByUser = Field(rawValue: "deliveredByUser")
    /// Prompt skills delivered because the app marked them active.
    public static let deliveredByApp = Field(rawValue: "deliveredByApp")
    /// Prompt skills not delivered again: the model already sees their body.
    public static let alreadyVisible = Field(rawValue: "alreadyVisible")
    /// Names the prompt mentions as `/name` that no skill has.
    public static let unknownCommands = Field(rawValue: "unknownCommands")
    /// Skills a catalog left out.
    public static let leftOut = Field(rawValue: "leftOut")
    /// The steps a catalog took to fit its budget, in order, by name
    /// (`descriptionsShortened`, `namesOnly`, `skillsLeftOut`).
    public static let steps = Field(rawValue: "steps")
    /// Retained-context keys put back after a cut.
    public static let putBack = Field(rawValue: "putBack")
    /// Retained-context keys left out.
    public static let keys = Field(rawValue: "keys")
    /// The identifier of the first history entry kept verbatim.
    public static let firstKeptEntry = Field(rawValue: "firstKeptEntry")
    /// The identifier of the first history entry dropped.
    public static let firstDroppedEntry = Field(rawValue: "firstDroppedEntry")
    /// The unit of a size: `tokens` or `entries`.
    public static let unit = Field(rawValue: "unit")
    /// Why: an error's text, a model's refusal.
    public static let reason = Field(rawValue: "reason")

    // Counts.

    /// Skills in a catalog.
    public static let skills = Field(rawValue: "skills")
    /// History entries dropped.
    public static let entriesDropped = Field(rawValue: "entriesDropped")
    /// History entries summarized.
    public static let entriesSummarized = Field(rawValue: "entriesSummarized")
    /// Earlier summaries folded into a new one.
    public static let summariesFolded = Field(rawValue: "summariesFolded")
    /// Pinned entries kept before a cut.
    public static let pinnedEntries = Field(rawValue: "pinnedEntries")
    /// The size of what was kept (in ``unit``, tokens when there is none).
    public static let kept = Field(rawValue: "kept")
    /// A budget or a window's size (in ``unit``, tokens when there is none).
    public static let budget = Field(rawValue: "budget")
    /// A size before a change (a catalog in full), in tokens.
    public static let tokensBefore = Field(rawValue: "tokensBefore")
    /// A size after a change (a shortened catalog, a summary), in tokens.
    public static let tokensAfter = Field(rawValue: "tokensAfter")
    /// Descriptions shortened (by a catalog over its budget).
    public static let descriptionsShortened = Field(rawValue: "descriptionsShortened")
    /// A limit in characters (for a shortened description).
    public static let characterLimit = Field(rawValue: "characterLimit")
    /// The size of a summary (in ``unit``, tokens when there is none).
    public static let summarySize = Field(rawValue: "summarySize")
    /// A size in tokens (of one item, say).
    public static let tokens = Field(rawValue: "tokens")
    /// The model's context window, in tokens.
    public static let contextSize = Field(rawValue: "contextSize")
    /// The prompt's size, in tokens, as the model counted it.
    public static let promptTokens = Field(rawValue: "promptTokens")
    /// Tokens reserved for the response.
    public static let reservedResponseTokens = Field(rawValue: "reservedResponseTokens")
  }
}

/// A dictionary key for a ``GenerationNote/Field``.
struct GenerationNoteFieldKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }

  init(stringValue: String) {
    self.stringValue = stringValue
  }

  init?(intValue: Int) {
    nil
  }
}
