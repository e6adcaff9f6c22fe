/// One problem found while loading a skill: where it is and what to do about it.
///
/// Its `description` has the form compilers use, so editors and terminals can
/// jump to the spot:
///
/// ```
/// Skills/pdf-tools/SKILL.md:2:7: error: name "PDF-Tools" must be lowercase
/// ```
public struct SkillDiagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
  /// How serious a diagnostic is.
  public enum Severity: String, Sendable, Hashable, Codable, Comparable {
    /// The skill loads, but something is probably not what its author meant.
    case warning
    /// The skill cannot be loaded.
    case error

    /// Orders warnings before errors.
    public static func < (lhs: Severity, rhs: Severity) -> Bool {
      lhs == .warning && rhs == .error
    }
  }

  /// How serious the problem is.
  public var severity: Severity
  /// The file or folder the problem is in, as given to the loader.
  public var path: String
  /// The 1-based line of the problem, or 0 when it concerns the whole file or folder.
  public var line: Int
  /// The 1-based column of the problem, or 0 when it concerns a whole line, file or folder.
  public var column: Int
  /// What is wrong, written so that a person can fix it.
  public var message: String

  /// Creates a diagnostic.
  public init(severity: Severity, path: String, line: Int = 0, column: Int = 0, message: String) {
    self.severity = severity
    self.path = path
    self.line = line
    self.column = column
    self.message = message
  }

  /// Whether the diagnostic is an error.
  public var isError: Bool { severity == .error }

  /// `path:line:col: severity: message`; the line and column are omitted when unknown.
  public var description: String {
    var location = path
    if line > 0 {
      location += ":\(line)"
      if column > 0 { location += ":\(column)" }
    }
    return "\(location): \(severity.rawValue): \(message)"
  }
}
