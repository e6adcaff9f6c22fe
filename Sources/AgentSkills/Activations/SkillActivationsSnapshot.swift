/// The active skills at one moment, as saved to and restored from disk.
///
/// Its JSON form is stable: `{"activeSkillNames":["a","b"],"version":1}`, names sorted.
public struct SkillActivationsSnapshot: Sendable, Hashable, Codable {
  /// The format version of the JSON form.
  public static let currentVersion = 1

  /// The format version this snapshot was written with.
  public var version: Int
  /// The names of the active skills, sorted.
  public var activeSkillNames: [String]

  /// Creates a snapshot of the given names (sorted and without duplicates).
  public init(activeSkillNames: some Sequence<String>) {
    self.version = Self.currentVersion
    self.activeSkillNames = Set(activeSkillNames).sorted()
  }
}
