import ContextKit
import Foundation

/// `contextkit skills validate`: every problem of every skill under the given paths.
struct SkillValidation {
  let paths: [String]
  let strict: Bool

  private struct Summary: Encodable {
    var skills: Int
    var errors: Int
    var warnings: Int
    var diagnostics: [SkillDiagnostic]
  }

  func run(json: Bool) throws -> Int32 {
    var diagnostics: [SkillDiagnostic] = []
    var skillCount = 0
    let mode: SkillValidationMode = strict ? .strict : .lenient
    for path in paths {
      let found = check(path, mode: mode)
      diagnostics += found.diagnostics
      skillCount += found.skills
    }
    let errors = diagnostics.filter(\.isError).count
    let warnings = diagnostics.count - errors
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      let summary = Summary(skills: skillCount, errors: errors, warnings: warnings, diagnostics: diagnostics)
      print(String(decoding: try encoder.encode(summary), as: UTF8.self))
    } else {
      for diagnostic in diagnostics {
        printText(TerminalText.escaped(diagnostic.description, keepingNewlines: false))
      }
      print(
        "\(skillCount) valid skill\(skillCount == 1 ? "" : "s"), \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
      )
    }
    return errors > 0 ? 1 : 0
  }

  /// The diagnostics of one path, and how many skills in it loaded.
  private func check(
    _ path: String, mode: SkillValidationMode
  ) -> (diagnostics: [SkillDiagnostic], skills: Int) {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
      return ([SkillDiagnostic(severity: .error, path: path, message: "no such folder")], 0)
    }
    let folder = URL(fileURLWithPath: path, isDirectory: true)
    if FileManager.default.fileExists(atPath: folder.appendingPathComponent("SKILL.md").path) {
      let report = SkillLoader(mode: mode).inspect(folder: folder)
      return (report.diagnostics, report.skill == nil ? 0 : 1)
    }
    do {
      let library = try SkillsLibrary(root: folder, mode: mode)
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
