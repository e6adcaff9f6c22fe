import ContextKit
import Foundation

/// `contextkit skills validate`: every problem of every skill under the given
/// paths, each a `SKILL.md` file, a skill folder, or a root to search.
struct SkillValidation {
  let paths: [String]
  let strict: Bool

  /// `--json`: the number of skills that loaded, the error and warning
  /// counts, and every diagnostic sorted by file, line and column.
  struct Summary: Encodable {
    var skills: Int
    var errors: Int
    var warnings: Int
    var diagnostics: [SkillDiagnostic]
  }

  func run(json: Bool, console: Console) throws -> ExitCode {
    var diagnostics: [SkillDiagnostic] = []
    var skillCount = 0
    let mode: SkillValidationMode = strict ? .strict : .lenient
    for path in paths {
      let found = check(path, mode: mode)
      diagnostics += found.diagnostics
      skillCount += found.skills
    }
    diagnostics = diagnostics.sortedByLocation()
    let errors = diagnostics.filter(\.isError).count
    let warnings = diagnostics.count - errors
    if json {
      console.print(
        try JSONOutput.string(
          Summary(skills: skillCount, errors: errors, warnings: warnings, diagnostics: diagnostics)))
    } else {
      for diagnostic in diagnostics {
        console.print(TerminalText.escaped(diagnostic.description, keepingNewlines: false))
      }
      console.print(
        "\(skillCount) valid skill\(skillCount == 1 ? "" : "s"), \(errors) error\(errors == 1 ? "" : "s"), "
          + "\(warnings) warning\(warnings == 1 ? "" : "s")")
    }
    return errors > 0 ? .invalidInput : .success
  }

  /// The diagnostics of one path, and how many skills in it loaded.
  private func check(
    _ path: String, mode: SkillValidationMode
  ) -> (diagnostics: [SkillDiagnostic], skills: Int) {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      return ([SkillDiagnostic(severity: .error, path: path, message: "no such file or folder")], 0)
    }
    let given = URL(fileURLWithPath: path, isDirectory: isFolder.boolValue)
    if !isFolder.boolValue {
      guard given.lastPathComponent == "SKILL.md" else {
        let message = "not a SKILL.md file or a folder; give a skill's SKILL.md, its folder, or a root"
        return ([SkillDiagnostic(severity: .error, path: path, message: message)], 0)
      }
      let report = SkillLoader(mode: mode).inspect(folder: given.deletingLastPathComponent())
      return (report.diagnostics, report.skill == nil ? 0 : 1)
    }
    if FileManager.default.fileExists(atPath: given.appendingPathComponent("SKILL.md").path) {
      let report = SkillLoader(mode: mode).inspect(folder: given)
      return (report.diagnostics, report.skill == nil ? 0 : 1)
    }
    do {
      let library = try SkillsLibrary(root: given, mode: mode)
      if library.loadedSkills.isEmpty && !library.hasErrors {
        let message =
          "no SKILL.md here and no skill folder under it; a skill is a folder whose SKILL.md has front matter"
        return (library.diagnostics + [SkillDiagnostic(severity: .error, path: path, message: message)], 0)
      }
      return (library.diagnostics, library.loadedSkills.count)
    } catch {
      return (error.diagnostics, 0)
    }
  }
}
