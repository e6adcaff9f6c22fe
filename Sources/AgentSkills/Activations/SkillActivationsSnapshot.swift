/// The skills in play at one moment: the active instructions skills and the
/// prompt skills whose body is in the context the model sees.
///
/// ``SkillActivations/changes`` delivers one after every change, and
/// ``SkillActivations/save(to:)`` writes one to disk. Its JSON form is stable:
/// `{"activeSkillNames":["a"],"loadedSkillNames":["b"],"version":1}`, names
/// sorted; a file without `loadedSkillNames` (written before it existed) reads
/// as none loaded.
public struct SkillActivationsSnapshot: Sendable, Hashable, Codable {
  /// The format version of the JSON form.
  public static let currentVersion = 1

  /// The format version this snapshot was written with.
  public var version: Int
  /// The names of the active skills, sorted: instructions skills whose body is
  /// in the instructions, and skills the app activated that are not delivered yet.
  public var activeSkillNames: [String]
  /// The names of the prompt skills whose body is in the visible context
  /// (delivered and not dropped by a history modifier), sorted.
  public var loadedSkillNames: [String]

  /// Creates a snapshot of the given names (sorted and without duplicates).
  public init(activeSkillNames: some Sequence<String>, loadedSkillNames: some Sequence<String> = [String]()) {
    self.version = Self.currentVersion
    self.activeSkillNames = Set(activeSkillNames).sorted()
    self.loadedSkillNames = Set(loadedSkillNames).sorted()
  }

  private enum CodingKeys: String, CodingKey {
    case version, activeSkillNames, loadedSkillNames
  }

  /// Reads a snapshot; `loadedSkillNames` may be missing.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try container.decode(Int.self, forKey: .version)
    activeSkillNames = Set(try container.decode([String].self, forKey: .activeSkillNames)).sorted()
    loadedSkillNames =
      Set(try container.decodeIfPresent([String].self, forKey: .loadedSkillNames) ?? []).sorted()
  }

  /// Writes the snapshot.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(activeSkillNames, forKey: .activeSkillNames)
    try container.encode(loadedSkillNames, forKey: .loadedSkillNames)
    try container.encode(version, forKey: .version)
  }
}
