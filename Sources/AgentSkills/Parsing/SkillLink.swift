/// A relative link in a skill's body to a file inside the skill's folder.
public struct SkillLink: Sendable, Hashable, Codable {
  /// The destination as written, such as `references/checklist.md#locks`.
  public var destination: String
  /// The file's path relative to the skill folder, normalised: `references/checklist.md`.
  public var path: String
  /// The 1-based line of the link in `SKILL.md`.
  public var line: Int
  /// The 1-based column of the destination in `SKILL.md`.
  public var column: Int

  /// Creates a link.
  public init(destination: String, path: String, line: Int, column: Int) {
    self.destination = destination
    self.path = path
    self.line = line
    self.column = column
  }
}
