import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names in a folder as the file system holds them: bytes, which need
/// not be UTF-8. Foundation's listing turns a name that is not UTF-8 into
/// another string, whose path then names no file; these names open the
/// file they came from.
package struct FolderEntry: Sendable, Hashable {
  /// The name's bytes, without a NUL.
  package var nameBytes: [UInt8]

  /// The name for people: invalid UTF-8 bytes shown as `\xFF`.
  package var displayName: String {
    var text = ""
    var index = 0
    while index < nameBytes.count {
      // The longest valid UTF-8 sequence from here, else one byte escaped.
      var decoded = false
      for length in (1...min(4, nameBytes.count - index)).reversed() {
        if let scalar = String(validating: nameBytes[index..<(index + length)], as: UTF8.self),
          scalar.unicodeScalars.count == 1
        {
          text += scalar
          index += length
          decoded = true
          break
        }
      }
      if !decoded {
        text += "\\x" + String(nameBytes[index], radix: 16, uppercase: true)
        index += 1
      }
    }
    return text
  }

  /// `folder/name` as file system bytes, NUL-terminated.
  package func fileSystemPath(in folder: String) -> [CChar] {
    var path = Array(folder.utf8)
    if path.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
    return (path + nameBytes).map { CChar(bitPattern: $0) } + [0]
  }

  /// The entries of `folder` but `.` and `..`, in the order the file system gives them.
  package static func list(_ folder: String) throws(FileAccessError) -> [FolderEntry] {
    guard let stream = opendir(folder) else {
      throw FileAccessError(
        path: folder, operation: .read, reason: .system(call: "opendir", message: FileKind.lastError()))
    }
    defer { closedir(stream) }
    var entries: [FolderEntry] = []
    while true {
      errno = 0
      guard let entry = readdir(stream) else {
        guard errno == 0 else {
          throw FileAccessError(
            path: folder, operation: .read, reason: .system(call: "readdir", message: FileKind.lastError()))
        }
        return entries
      }
      let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
      if name != [0x2E] && name != [0x2E, 0x2E] { entries.append(FolderEntry(nameBytes: name)) }
    }
  }
}
