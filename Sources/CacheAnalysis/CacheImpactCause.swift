/// Why a generation could not reuse all of the previous generation's cached
/// stream, attributed from the generation records.
public struct CacheImpactCause: Sendable, Hashable, Codable, CustomStringConvertible {
  /// What changed.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The request extends what the previous generation left in the cache:
    /// nothing was invalidated.
    case appendOnly
    /// No earlier generation: nothing was cached yet.
    case coldStart
    /// The tool list changed: a tool was added, removed, or its definition
    /// (description or schema) changed. The detail names the tools added,
    /// then those removed, then those redefined, each in its tool list's
    /// order (`the tool list added zeta, alpha; removed c`).
    case toolsChanged
    /// The context settings written into the prompt changed (the reasoning level).
    case settingsChanged
    /// The response schema written into the prompt changed, appeared or went away.
    case responseSchemaChanged
    /// The instructions were rewritten (by an instructions skill, or by the app).
    /// Source and detail come from the record's first `instructionsChanged` note.
    case instructionsChanged
    /// A history modifier rewrote the history before the new entries: ``CacheImpactCause/source`` names its stage
    /// (for a record without stages, the source and detail of its last `historyRewritten` note).
    case historyRewritten
    /// The stored history itself is not the previous one plus the new entries
    /// (a failed turn rolled back, a transcript replaced).
    case storedHistoryChanged
  }

  /// What changed.
  public var kind: Kind
  /// Who changed it: a modifier's stage name, `skills`, or `nil` when unknown.
  public var source: String?
  /// A sentence about the change, for a person.
  public var detail: String

  /// Creates a cause.
  public init(kind: Kind, source: String? = nil, detail: String = "") {
    self.kind = kind
    self.source = source
    self.detail = detail
  }

  /// Nothing invalidated.
  public static let appendOnly = CacheImpactCause(kind: .appendOnly, detail: "append only")

  /// Whether the cause invalidated part of the cache (anything but append-only and cold start).
  public var isInvalidation: Bool { kind != .appendOnly && kind != .coldStart }

  /// The key the session summary groups invalidations by: `historyRewritten(rollingWindow)`, `toolsChanged`.
  public var groupingKey: String {
    source.map { "\(kind.rawValue)(\($0))" } ?? kind.rawValue
  }

  /// `kind (source): detail`.
  public var description: String {
    let head = groupingKey
    return detail.isEmpty ? head : "\(head): \(detail)"
  }
}
