import AgentSkills
import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

  /// Loading 10,000 generated skills, against loading 1,000 of the same kind in
  /// the same run (the goal is at most 12x: linear, with room for the larger
  /// folder listings). The note gives the process's peak resident memory
  /// (`getrusage` `ru_maxrss`) before and after one load of the 10,000.
  static func makeLarge(count: Int = 10_000, bodyBytes: Int = 5 * 1024) throws -> BenchmarkCase {
    let small = try make(bodyBytes: bodyBytes)
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "contextkit-bench-skills-\(count)-\(bodyBytes)", isDirectory: true)
    if (try? SkillsLibrary(root: root, mode: .strict).loadedSkills.count) != count {
      try? FileManager.default.removeItem(at: root)
      try SkillLibraryGenerator.generateLibrary(at: root, count: count, bodyBytes: bodyBytes)
    }
    let before = peakResidentBytes()
    let loaded = try SkillsLibrary(root: root, mode: .strict).loadedSkills.count
    let after = peakResidentBytes()
    guard loaded == count else {
      throw BenchmarkSetupError(description: "loaded \(loaded) of \(count) generated skills")
    }
    return BenchmarkCase(
      name: "skills/load/\(count)",
      run: { try SkillsLibrary(root: root, mode: .strict).loadedSkills.count },
      baseline: BenchmarkCase.Operation(name: small.name, run: small.operation.run),
      unit: BenchmarkUnit(name: "skill", countPerOperation: count),
      note:
        "peak resident memory (ru_maxrss): \(megabytes(before)) before the first load of \(count) skills, "
        + "\(megabytes(after)) after it")
  }

  /// Loading 2,000 skills written as people write them for lenient agents
  /// (``WildSkillCorpus``: every shape in turn, a quarter of them with
  /// front matter that needs the unquoted-colon fallback or is refused), in
  /// lenient mode, against loading 1,000 conforming skills (`skills/load/1000`)
  /// in the same run. The note gives the peak resident memory before and
  /// after the first load.
  static func makeWild(count: Int = 2_000) throws -> BenchmarkCase {
    let small = try make()
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "contextkit-bench-wild-skills-\(count)", isDirectory: true)
    try? FileManager.default.removeItem(at: root)
    let written = try WildSkillCorpus.write(count: count, at: root)
    let expected = written.filter {
      if case .loads = $0.shape.guideOutcome(folder: $0.folder) { true } else { false }
    }.count
    let before = peakResidentBytes()
    let loaded = try SkillsLibrary(root: root).loadedSkills.count
    let after = peakResidentBytes()
    guard loaded == expected else {
      throw BenchmarkSetupError(description: "loaded \(loaded) of the \(expected) loadable wild skills")
    }
    return BenchmarkCase(
      name: "skills/load/wild-\(count)",
      run: { try SkillsLibrary(root: root).loadedSkills.count },
      baseline: BenchmarkCase.Operation(name: small.name, run: small.operation.run),
      unit: BenchmarkUnit(name: "skill", countPerOperation: count),
      note:
        "\(loaded) of \(count) load (the rest are refused, as the client guide refuses them); "
        + "peak resident memory (ru_maxrss): \(megabytes(before)) before the first load, \(megabytes(after)) after it"
    )
  }

  /// The process's peak resident memory so far, in bytes.
  static func peakResidentBytes() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
    let who = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
    let who = RUSAGE_SELF
    #endif
    guard getrusage(who, &usage) == 0 else { return 0 }
    #if canImport(Darwin)
    return Int(usage.ru_maxrss)  // bytes on Darwin
    #else
    return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
    #endif
  }

  private static func megabytes(_ bytes: Int) -> String {
    String(format: "%.1f MB", Double(bytes) / 1_048_576)
  }
}
