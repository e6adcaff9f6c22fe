import Foundation

/// Writes a report to disk, creating its folder.
enum ReportFile {
  /// A report that could not be written.
  struct WriteError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "cannot write \(path): \(reason)" }
  }

  static func write(_ text: String, to path: String) throws(WriteError) {
    let url = URL(fileURLWithPath: path)
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url, options: .atomic)
    } catch {
      throw WriteError(path: path, reason: error.localizedDescription)
    }
  }
}
