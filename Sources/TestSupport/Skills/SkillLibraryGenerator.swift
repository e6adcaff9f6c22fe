import Foundation

/// Writes libraries of valid, deterministic skills to disk, for tests and
/// benchmarks that need many real `SKILL.md` folders.
///
/// ```swift
/// let root = FileManager.default.temporaryDirectory.appendingPathComponent("skills")
/// try SkillLibraryGenerator.generateLibrary(at: root, count: 1000, bodyBytes: 5 * 1024)
/// ```
public enum SkillLibraryGenerator {
  /// Why a library could not be written.
  public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file or folder involved.
    public var path: String
    /// What went wrong.
    public var reason: String

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
  }

  /// Writes `count` valid skills under `root` (created if needed), each with a
  /// markdown body of about `bodyBytes` bytes, a few sections, and a linked
  /// reference file. The same arguments always write the same bytes.
  public static func generateLibrary(
    at root: URL, count: Int = 1000, bodyBytes: Int = 5 * 1024
  ) throws(Failure) {
    for index in 0..<count {
      let name = "generated-skill-\(index)"
      let folder = root.appendingPathComponent(name, isDirectory: true)
      let references = folder.appendingPathComponent("references", isDirectory: true)
      do {
        try FileManager.default.createDirectory(at: references, withIntermediateDirectories: true)
        try Data(skillText(name: name, index: index, bodyBytes: bodyBytes).utf8)
          .write(to: folder.appendingPathComponent("SKILL.md"))
        try Data("# Reference for \(name)\n\nDetails.\n".utf8)
          .write(to: references.appendingPathComponent("guide.md"))
      } catch {
        throw Failure(path: folder.path, reason: "\(error)")
      }
    }
  }

  /// The text of one generated `SKILL.md`.
  public static func skillText(name: String, index: Int, bodyBytes: Int) -> String {
    var text = """
      ---
      name: \(name)
      description: Generated skill number \(index) for measuring how fast a library of skills loads.
      license: Apache-2.0
      metadata:
        author: ContextKit benchmark
        activation: \(index.isMultiple(of: 10) ? "instructions" : "prompt")
      ---
      # Skill \(index)

      Read [the guide](references/guide.md) before starting.

      """
    var section = 0
    while text.utf8.count < bodyBytes {
      section += 1
      text += """

        ## Step \(section)

        Check the input for *missing fields*, then compare it with the `expected` shape. When the
        two differ, explain the difference in one sentence and propose the smallest change.

        - Keep identifiers exactly as written.
        - Prefer **concrete** examples over general advice.
        - Stop when the result satisfies every item above.

        ```swift
        let value = try decoder.decode(Report.self, from: data)
        ```

        """
    }
    return text
  }
}
