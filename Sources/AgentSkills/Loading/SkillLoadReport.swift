import Foundation

/// What loading one skill folder found: the skill, if it could be loaded, and every diagnostic.
public struct SkillLoadReport: Sendable, Hashable {
  /// The folder that was loaded.
  public let folder: URL
  /// The skill, or `nil` when any diagnostic is an error.
  public let skill: LoadedSkill?
  /// Every problem found, errors and warnings, in the order they were found.
  public let diagnostics: [SkillDiagnostic]

  /// Creates a report.
  public init(folder: URL, skill: LoadedSkill?, diagnostics: [SkillDiagnostic]) {
    self.folder = folder
    self.skill = skill
    self.diagnostics = diagnostics
  }

  /// The first error, if any.
  public var firstError: SkillDiagnostic? { diagnostics.first { $0.isError } }
}
