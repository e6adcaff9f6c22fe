import CMark
import Foundation

/// A repeatable measurement of skill loading: generate a library of skills on
/// disk, load and validate it, and compare with parsing the same bytes with
/// libcmark alone.
///
/// ```swift
/// let root = FileManager.default.temporaryDirectory.appendingPathComponent("skills-bench")
/// try AgentSkillsBenchmark.generateLibrary(at: root, count: 1000, bodyBytes: 5 * 1024)
/// let result = try AgentSkillsBenchmark.measure(root: root, iterations: 5)
/// print(result)  // 1000 skills, 5.2 MB: load 80.1 ms, libcmark alone 20.3 ms, ratio 3.9x
/// ```
public enum AgentSkillsBenchmark {
  /// What one measurement found; times are the median of the iterations.
  public struct Result: Sendable, Hashable, CustomStringConvertible {
    /// How many skills were loaded.
    public var skillCount: Int
    /// The total size of the `SKILL.md` files, in bytes.
    public var totalBytes: Int
    /// Discovering, reading, parsing and validating the whole library.
    public var loadDuration: Duration
    /// Parsing the same `SKILL.md` bytes, already in memory, with `cmark_parse_document` alone.
    public var cmarkDuration: Duration

    /// `loadDuration / cmarkDuration`.
    public var ratio: Double {
      let cmark = Self.seconds(cmarkDuration)
      return cmark > 0 ? Self.seconds(loadDuration) / cmark : 0
    }

    /// One line: counts, both times in milliseconds, and the ratio.
    public var description: String {
      let megabytes = Double(totalBytes) / 1_000_000
      return "\(skillCount) skills, \(Self.format(megabytes, digits: 1)) MB: "
        + "load \(Self.format(Self.seconds(loadDuration) * 1000, digits: 1)) ms, "
        + "libcmark alone \(Self.format(Self.seconds(cmarkDuration) * 1000, digits: 1)) ms, "
        + "ratio \(Self.format(ratio, digits: 2))x"
    }

    static func seconds(_ duration: Duration) -> Double {
      let parts = duration.components
      return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    static func format(_ value: Double, digits: Int) -> String {
      String(format: "%.\(digits)f", value)
    }
  }

  /// Why a benchmark could not run.
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

  /// Loads the library under `root` in strict mode `iterations` times, and parses
  /// the same bytes with libcmark alone as many times; reports the medians.
  public static func measure(root: URL, iterations: Int = 5) throws(Failure) -> Result {
    let clock = ContinuousClock()
    var loadTimes: [Duration] = []
    var skillCount = 0
    for _ in 0..<max(1, iterations) {
      let start = clock.now
      do {
        let library = try SkillsLibrary(root: root, mode: .strict)
        skillCount = library.loadedSkills.count
      } catch {
        throw Failure(path: root.path, reason: error.description)
      }
      loadTimes.append(clock.now - start)
    }
    let files = try skillFileContents(under: root)
    var cmarkTimes: [Duration] = []
    for _ in 0..<max(1, iterations) {
      let start = clock.now
      _ = parseWithLibcmarkAlone(files)
      cmarkTimes.append(clock.now - start)
    }
    return Result(
      skillCount: skillCount, totalBytes: files.reduce(0) { $0 + $1.count },
      loadDuration: median(loadTimes), cmarkDuration: median(cmarkTimes))
  }

  /// Parses each file's bytes with `cmark_parse_document` and nothing else:
  /// the baseline for loading. Returns how many documents parsed.
  public static func parseWithLibcmarkAlone(_ files: [[UInt8]]) -> Int {
    var parsed = 0
    for bytes in files {
      bytes.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { text in
          if let document = cmark_parse_document(text, buffer.count, CMARK_OPT_DEFAULT) {
            cmark_node_free(document)
            parsed += 1
          }
        }
      }
    }
    return parsed
  }

  /// The bytes of every `SKILL.md` one level under `root`.
  public static func skillFileContents(under root: URL) throws(Failure) -> [[UInt8]] {
    guard let names = FileSystem.contentsOfDirectory(root.path) else {
      throw Failure(path: root.path, reason: "cannot list the folder")
    }
    var files: [[UInt8]] = []
    for name in names {
      let path = root.path + "/" + name + "/SKILL.md"
      if case .contents(let bytes) = FileSystem.readFile(path, limit: 1 << 20) { files.append(bytes) }
    }
    return files
  }

  private static func median(_ values: [Duration]) -> Duration {
    let sorted = values.sorted()
    return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
  }

  /// The text of one generated `SKILL.md`.
  static func skillText(name: String, index: Int, bodyBytes: Int) -> String {
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
