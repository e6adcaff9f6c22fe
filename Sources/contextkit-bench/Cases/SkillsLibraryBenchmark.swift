import AgentSkills
import Foundation
import TestSupport

/// Loading and validating a library of 1,000 generated skills (5 KB bodies),
/// against parsing the same `SKILL.md` bytes with libcmark alone.
enum SkillsLibraryBenchmark {
  static func make(count: Int = 1000, bodyBytes: Int = 5 * 1024) throws -> BenchmarkCase {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "contextkit-bench-skills-\(count)-\(bodyBytes)", isDirectory: true)
    try? FileManager.default.removeItem(at: root)
    try SkillLibraryGenerator.generateLibrary(at: root, count: count, bodyBytes: bodyBytes)
    let files = try LibcmarkBaseline.skillFiles(under: root)
    return BenchmarkCase(
      name: "skills/load/\(count)",
      run: { try SkillsLibrary(root: root, mode: .strict).loadedSkills.count },
      baseline: BenchmarkCase.Operation(
        name: "libcmark alone", run: { LibcmarkBaseline.parse(files) }),
      unit: BenchmarkUnit(name: "skill", countPerOperation: count))
  }
}
