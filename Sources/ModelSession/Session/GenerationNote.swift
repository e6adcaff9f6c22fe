/// A remark about one generation, recorded by a modifier, a skill catalog or
/// the session: a summarizer that fell back, instructions rewritten by a skill.
///
/// Besides its ``message`` for a person, a note carries what it is about as
/// data: the ``names`` involved (skills activated, tools added, the first entry
/// kept) and the ``counts`` (entries dropped, tokens, the window), each under a
/// ``Field``. Tools that analyze records read those, never the message; the
/// modules that write notes render the message from them.
public struct GenerationNote: Sendable, Hashable, Codable, CustomStringConvertible {
  /// What the note is about, for tools that analyze records.
  public struct Kind: Sendable, Hashable, Codable, RawRepresentable, CustomStringConvertible {
    /// The kind's name.
    public var rawValue: String

    /// Creates a kind.
    public init(rawValue: String) {
      self.rawValue = rawValue
    }

    /// The instructions changed because of this source (such as a skill activation).
    public static let instructionsChanged = Kind(rawValue: "instructionsChanged")
    /// The tool list changed because of this source.
    public static let toolsChanged = Kind(rawValue: "toolsChanged")
    /// A modifier rewrote older history (not only appended).
    public static let historyRewritten = Kind(rawValue: "historyRewritten")
    /// A modifier could not do its work and fell back to something simpler.
    public static let fallback = Kind(rawValue: "fallback")
    /// Retained context (a skill's body, say) that a cut dropped and that was
    /// not put back; the note names its key and why.
    public static let contextLeftOut = Kind(rawValue: "contextLeftOut")
    /// A catalog (of skills, say) did not fit its budget and was shortened:
    /// the note names each step taken and what was left out.
    public static let catalogTrimmed = Kind(rawValue: "catalogTrimmed")
    /// The model refused the prompt as larger than its window, and the
    /// session compacted the history and retried the generation: the note
    /// gives the model's numbers.
    public static let contextOverflowRecovered = Kind(rawValue: "contextOverflowRecovered")
    /// Anything else worth knowing.
    public static let information = Kind(rawValue: "information")

    /// The kind's name.
    public var description: String { rawValue }
  }

  /// Who wrote the note: a modifier's stage name, `skills`, `session`.
  public var source: String
  /// What the note is about.
  public var kind: Kind
  /// The note, for a person (rendered from ``names`` and ``counts`` by the
  /// module that wrote it).
  public var message: String
  /// The names the note is about, by field: skills, tools, retained-context
  /// keys, entry identifiers, in the order the message gives them. Empty in
  /// records written before notes carried fields.
  public var names: [Field: [String]]
  /// The numbers the note gives, by field: entries, tokens, a window's size.
  /// Empty in records written before notes carried fields.
  public var counts: [Field: Int]

  /// Creates a note.
  ///
  /// - Parameters:
  ///   - source: Who wrote the note.
  ///   - kind: What the note is about.
  ///   - message: The note, for a person.
  ///   - names: The names involved, by field.
  ///   - counts: The numbers involved, by field.
  public init(
    source: String, kind: Kind, message: String, names: [Field: [String]] = [:], counts: [Field: Int] = [:]
  ) {
    self.source = source
    self.kind = kind
    self.message = message
    self.names = names
    self.counts = counts
  }

  /// The names under `field`, empty when the note has none.
  public func names(_ field: Field) -> [String] { names[field] ?? [] }

  /// `source (kind): message`.
  public var description: String { "\(source) (\(kind)): \(message)" }

  private enum CodingKeys: String, CodingKey {
    case source, kind, message, names, counts
  }

  /// Decodes a note; `names` and `counts` may be missing (records written
  /// before notes carried fields).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    source = try container.decode(String.self, forKey: .source)
    kind = try container.decode(Kind.self, forKey: .kind)
    message = try container.decode(String.self, forKey: .message)
    names = try container.decodeIfPresent([Field: [String]].self, forKey: .names) ?? [:]
    counts = try container.decodeIfPresent([Field: Int].self, forKey: .counts) ?? [:]
  }

  /// Encodes a note; empty `names` and `counts` are left out, so a note
  /// without fields is written as before.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(source, forKey: .source)
    try container.encode(kind, forKey: .kind)
    try container.encode(message, forKey: .message)
    if !names.isEmpty { try container.encode(names, forKey: .names) }
    if !counts.isEmpty { try container.encode(counts, forKey: .counts) }
  }
}
