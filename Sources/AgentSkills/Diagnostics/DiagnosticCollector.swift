/// Gathers the diagnostics for one file, turning questionable findings into
/// warnings or errors according to the validation mode.
struct DiagnosticCollector {
  let path: String
  let mode: SkillValidationMode
  private(set) var diagnostics: [SkillDiagnostic] = []

  init(path: String, mode: SkillValidationMode) {
    self.path = path
    self.mode = mode
  }

  var hasErrors: Bool { diagnostics.contains { $0.isError } }

  mutating func error(_ message: String, line: Int = 0, column: Int = 0) {
    diagnostics.append(.init(severity: .error, path: path, line: line, column: column, message: message))
  }

  mutating func warning(_ message: String, line: Int = 0, column: Int = 0) {
    diagnostics.append(.init(severity: .warning, path: path, line: line, column: column, message: message))
  }

  /// A warning about another path than the collector's (a folder met during a walk).
  mutating func warning(_ message: String, at path: String) {
    diagnostics.append(.init(severity: .warning, path: path, message: message))
  }

  /// An error in strict mode and a warning in lenient mode.
  mutating func questionable(_ message: String, line: Int = 0, column: Int = 0) {
    let severity: SkillDiagnostic.Severity = mode == .strict ? .error : .warning
    diagnostics.append(.init(severity: severity, path: path, line: line, column: column, message: message))
  }

  /// A questionable finding about another path than the collector's (a folder met during a walk).
  mutating func questionable(_ message: String, at path: String) {
    let severity: SkillDiagnostic.Severity = mode == .strict ? .error : .warning
    diagnostics.append(.init(severity: severity, path: path, message: message))
  }

  /// Reports the names in a listing that are not valid UTF-8, which are skipped.
  mutating func reportUndecodable(_ names: [String], in folder: String) {
    for name in names {
      questionable(
        "the name \"\(name)\" is not valid UTF-8; rename it (it is skipped)", at: folder)
    }
  }

  mutating func append(contentsOf other: [SkillDiagnostic]) {
    diagnostics.append(contentsOf: other)
  }
}
