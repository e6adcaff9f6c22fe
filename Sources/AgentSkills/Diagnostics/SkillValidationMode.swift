/// How strictly skills are checked.
public enum SkillValidationMode: String, Sendable, Hashable, Codable {
  /// Loads every skill that can be loaded and reports the others; questionable
  /// things (unknown front matter keys, links to missing files) are warnings.
  case lenient
  /// Fails on the first error; questionable things are errors too.
  case strict
}
