/// What a ``SkillsLibrary/reload()`` found: the skills added, removed and
/// edited since the library was last loaded, each list sorted by name.
public struct SkillsLibraryChanges: Sendable, Hashable, CustomStringConvertible {
  /// Skills loaded now that were not before.
  public var added: [String]
  /// Skills loaded before that are gone (their folder removed or renamed, or now refused).
  public var removed: [String]
  /// Skills loaded before and now whose front matter, body, folder or list of resources differs.
  public var edited: [String]

  /// Creates a change report.
  public init(added: [String] = [], removed: [String] = [], edited: [String] = []) {
    self.added = added
    self.removed = removed
    self.edited = edited
  }

  /// The changes between two loads of a library.
  init(from old: [LoadedSkill], to new: [LoadedSkill]) {
    let before = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    let after = Dictionary(new.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    added = after.keys.filter { before[$0] == nil }.sorted()
    removed = before.keys.filter { after[$0] == nil }.sorted()
    edited = after.compactMap { name, skill in
      guard let earlier = before[name], !Self.sameContent(earlier, skill) else { return nil }
      return name
    }.sorted()
  }

  /// Whether nothing changed.
  public var isEmpty: Bool { added.isEmpty && removed.isEmpty && edited.isEmpty }

  /// `added a, b; removed c; edited d`, or `no changes`.
  public var description: String {
    var parts: [String] = []
    if !added.isEmpty { parts.append("added " + added.joined(separator: ", ")) }
    if !removed.isEmpty { parts.append("removed " + removed.joined(separator: ", ")) }
    if !edited.isEmpty { parts.append("edited " + edited.joined(separator: ", ")) }
    return parts.isEmpty ? "no changes" : parts.joined(separator: "; ")
  }

  /// Whether two loads of a skill are the same to a reader: the warnings may
  /// differ only in what they say about the disk, so they are not compared.
  private static func sameContent(_ lhs: LoadedSkill, _ rhs: LoadedSkill) -> Bool {
    lhs.frontMatter == rhs.frontMatter && lhs.body == rhs.body && lhs.resources == rhs.resources
      && lhs.folder == rhs.folder
  }
}
