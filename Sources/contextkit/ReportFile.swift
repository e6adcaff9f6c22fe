import ContextKit
import Foundation

/// Writes a report or records file through ``FileWriter``: `-` is standard
/// output, missing folders are created, a device or FIFO is written in place,
/// and a regular file is replaced atomically, keeping its permissions.
enum ReportFile {
  static func write(_ text: String, to path: String) throws(FileAccessError) {
    try FileWriter.write(Data(text.utf8), to: path, creatingFolders: true)
  }
}
