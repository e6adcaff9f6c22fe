/// A remark about one generation, recorded by a modifier, a skill catalog or
/// the session: a summarizer that fell back, instructions rewritten by a skill.
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
    /// not put back; the message names its key and why.
    public static let contextLeftOut = Kind(rawValue: "contextLeftOut")
    /// A catalog (of skills, say) did not fit its budget and was shortened:
    /// the message names each step taken and what was left out.
    public static let catalogTrimmed = Kind(rawValue: "catalogTrimmed")
    /// The model refused the prompt as larger than its window, and the
    /// session compacted the history and retried the generation: the message
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
  /// The note, for a person.
  public var message: String

  /// Creates a note.
  public init(source: String, kind: Kind, message: String) {
    self.source = source
    self.kind = kind
    self.message = message
  }

  /// `source (kind): message`.
  public var description: String { "\(source) (\(kind)): \(message)" }
}
