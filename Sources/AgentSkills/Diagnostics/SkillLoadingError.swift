/// The error thrown when a skill or a library of skills cannot be loaded.
///
/// It carries the diagnostic that stopped loading, and every diagnostic found
/// up to that point, so a caller can show them all.
public struct SkillLoadingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The error that stopped loading.
  public let diagnostic: SkillDiagnostic
  /// Every diagnostic found before loading stopped, including ``diagnostic``.
  public let diagnostics: [SkillDiagnostic]

  /// Creates an error for `diagnostic`, with the other diagnostics found so far.
  public init(_ diagnostic: SkillDiagnostic, all diagnostics: [SkillDiagnostic] = []) {
    self.diagnostic = diagnostic
    self.diagnostics = diagnostics.contains(diagnostic) ? diagnostics : diagnostics + [diagnostic]
  }

  /// The stopping diagnostic as `path:line:col: error: message`.
  public var description: String { diagnostic.description }
}
