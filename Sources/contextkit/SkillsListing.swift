import ContextKit
import Foundation

/// `contextkit skills list`: the loaded skills with flavour, whether they may be
/// deactivated, and whether the model may activate them or they are hidden from it.
struct SkillsListing {
  let roots: SkillRoots
  let json: Bool

  /// `--json`: `{"skills": [SkillSummary], "diagnostics": [SkillDiagnostic]}`.
  struct Output: Encodable {
    var skills: [SkillSummary]
    var diagnostics: [SkillDiagnostic]
  }

  func run(console: Console) throws -> ExitCode {
    let (library, diagnostics) = try roots.load()
    if json {
      console.print(
        try JSONOutput.string(
          Output(skills: library.loadedSkills.map(SkillSummary.init), diagnostics: diagnostics)))
    } else {
      console.printDiagnostics(diagnostics)
      let rows =
        [["NAME", "FLAVOUR", "DEACTIVATABLE", "MODEL", "DESCRIPTION"]]
        + library.loadedSkills.map { skill in
          [
            skill.name, skill.activation.rawValue, skill.allowsDeactivation ? "yes" : "no",
            skill.allowsModelInvocation ? "invokes" : "hidden",
            TerminalText.escaped(skill.description, keepingNewlines: false),
          ]
        }
      let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
      for row in rows {
        let padded = (0..<4).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
        console.print((padded + [row[4]]).joined(separator: "  "))
      }
    }
    return diagnostics.contains(where: \.isError) ? .invalidInput : .success
  }
}
