import AgentSkills
import Foundation
import TestSupport

/// Loading one skill whose front matter fills the 1 MiB file limit: the YAML
/// reader's worst cases (a 100,000-item flow sequence, a block mapping of the
/// same size). Loading must stay linear in the file's size.
enum FrontMatterBenchmark {
  enum Shape: String {
    case flowSequence = "flow-sequence"
    case blockMapping = "block-mapping"
  }

  static func make(_ shape: Shape) throws -> BenchmarkCase {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "contextkit-bench-front-matter-\(shape.rawValue)", isDirectory: true)
    let name = "large-front-matter"
    let folder = root.appendingPathComponent(name, isDirectory: true)
    try? FileManager.default.removeItem(at: root)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let text =
      switch shape {
      case .flowSequence: LargeFrontMatter.flowSequence(name: name)
      case .blockMapping: LargeFrontMatter.blockMapping(name: name).text
      }
    try Data(text.utf8).write(to: folder.appendingPathComponent("SKILL.md"))
    let loader = SkillLoader()
    guard loader.inspect(folder: folder).skill != nil else {
      throw BenchmarkSetupError(description: "the \(shape.rawValue) front matter did not load")
    }
    return BenchmarkCase(
      name: "skills/front-matter/1MiB-\(shape.rawValue)",
      run: { loader.inspect(folder: folder).skill?.name.count ?? 0 })
  }
}
