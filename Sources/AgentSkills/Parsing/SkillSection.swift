/// A heading of a skill's body and the headings nested under it.
///
/// A `## Steps` heading that follows `# Release notes` is one of its
/// ``children``; headings are nested by level, as a table of contents would be.
public struct SkillSection: Sendable, Hashable, Codable {
  /// The heading level, 1 (`#`) to 6 (`######`).
  public var level: Int
  /// The heading's text, without markup.
  public var title: String
  /// The 1-based line of the heading in `SKILL.md`.
  public var line: Int
  /// The sections nested under this one.
  public var children: [SkillSection]

  /// Creates a section.
  public init(level: Int, title: String, line: Int, children: [SkillSection] = []) {
    self.level = level
    self.title = title
    self.line = line
    self.children = children
  }

  /// This section and every section under it, in document order.
  public var flattened: [SkillSection] {
    [self] + children.flatMap(\.flattened)
  }
}
