import Foundation

@testable import AgentSkills

/// Loads the skill folder and returns its report.
func inspect(_ folder: URL, mode: SkillValidationMode = .lenient) -> SkillLoadReport {
  SkillLoader(mode: mode).inspect(folder: folder)
}

/// The messages of the report's errors.
func errors(_ report: SkillLoadReport) -> [String] {
  report.diagnostics.filter(\.isError).map(\.message)
}
