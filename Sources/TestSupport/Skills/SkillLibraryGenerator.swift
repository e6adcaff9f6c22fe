import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes libraries of valid, deterministic skills to disk, for tests and
/// benchmarks that need many real `SKILL.md` folders.
///
/// ```swift
/// let folder = try TemporaryFolder(named: "skills")
/// defer { folder.removeLargeTree() }
/// try SkillLibraryGenerator.generateLibrary(at: folder.url("skills"), count: 1000, bodyBytes: 5 * 1024)
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
    // Plain system calls: Foundation's file manager takes seconds per thousand folders.
    try makeFolder(root.path, intermediate: true)
    for index in 0..<count {
      let name = "generated-skill-\(index)"
      let folder = root.path + "/" + name
      try makeFolder(folder)
      try makeFolder(folder + "/references")
      try writeFile(folder + "/SKILL.md", skillText(name: name, index: index, bodyBytes: bodyBytes))
      try writeFile(folder + "/references/guide.md", "# Reference for \(name)\n\nDetails.\n")
    }
  }

  private static func makeFolder(_ path: String, intermediate: Bool = false) throws(Failure) {
    if intermediate {
      do {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      } catch {
        throw Failure(path: path, reason: "\(error)")
      }
      return
    }
    guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
      throw Failure(path: path, reason: String(cString: strerror(errno)))
    }
  }

  private static func writeFile(_ path: String, _ text: String) throws(Failure) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
    defer { close(descriptor) }
    var bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeMutableBytes { buffer in
        write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
      written += count
    }
    bytes.removeAll()
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
