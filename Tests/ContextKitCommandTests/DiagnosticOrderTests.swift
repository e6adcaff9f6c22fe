import AgentSkills
import Testing

@testable import contextkit

/// The order `skills validate`, `list` and `demo` print diagnostics in: by
/// file, line and column, then errors before warnings, then by message.
@Suite("Diagnostic order", .timeLimit(.minutes(10))) struct DiagnosticOrderTests {
  private func line(_ diagnostic: SkillDiagnostic) -> String { diagnostic.description }

  @Test func `diagnostics sort by file, then line as a number, then column`() {
    let given = [
      SkillDiagnostic(severity: .warning, path: "b/SKILL.md", line: 1, column: 1, message: "m"),
      SkillDiagnostic(severity: .warning, path: "a/SKILL.md", line: 10, column: 1, message: "m"),
      SkillDiagnostic(severity: .warning, path: "a/SKILL.md", line: 2, column: 9, message: "m"),
      SkillDiagnostic(severity: .warning, path: "a/SKILL.md", line: 2, column: 3, message: "m"),
      SkillDiagnostic(severity: .warning, path: "a/SKILL.md", line: 3, column: 1, message: "m"),
    ]
    #expect(
      given.sortedByLocation().map(line) == [
        "a/SKILL.md:2:3: warning: m",
        "a/SKILL.md:2:9: warning: m",
        "a/SKILL.md:3:1: warning: m",
        "a/SKILL.md:10:1: warning: m",
        "b/SKILL.md:1:1: warning: m",
      ])
  }

  @Test func `at one spot errors come before warnings, then messages in byte order`() {
    let given = [
      SkillDiagnostic(severity: .warning, path: "a/SKILL.md", line: 2, column: 3, message: "alpha"),
      SkillDiagnostic(severity: .error, path: "a/SKILL.md", line: 2, column: 3, message: "zulu"),
      SkillDiagnostic(severity: .error, path: "a/SKILL.md", line: 2, column: 3, message: "Bravo"),
      SkillDiagnostic(severity: .error, path: "a/SKILL.md", line: 2, column: 3, message: "bravo"),
    ]
    #expect(
      given.sortedByLocation().map(line) == [
        "a/SKILL.md:2:3: error: Bravo",
        "a/SKILL.md:2:3: error: bravo",
        "a/SKILL.md:2:3: error: zulu",
        "a/SKILL.md:2:3: warning: alpha",
      ])
  }
}
