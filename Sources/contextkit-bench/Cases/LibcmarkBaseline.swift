import CMark
import Foundation

/// The baseline for skill loading: the same `SKILL.md` bytes, already in
/// memory, parsed with `cmark_parse_document` and nothing else.
enum LibcmarkBaseline {
  /// Parses each file's bytes with libcmark alone; returns how many documents parsed.
  static func parse(_ files: [[UInt8]]) -> Int {
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
  static func skillFiles(under root: URL) throws -> [[UInt8]] {
    let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
    return names.compactMap { name in
      FileManager.default.contents(atPath: root.path + "/" + name + "/SKILL.md").map { [UInt8]($0) }
    }
  }
}
