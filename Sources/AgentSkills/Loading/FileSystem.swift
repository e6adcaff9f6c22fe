import ModelSession

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file-system calls the loader needs, made directly so that symbolic
/// links are seen for what they are and nothing is read by accident.
enum FileSystem {
  /// What a path names, without following a final symbolic link.
  enum Kind: Equatable {
    case file(size: Int)
    case directory
    case symbolicLink
    case other
  }

  /// What `path` names, or `nil` when nothing is there.
  static func kind(of path: String) -> Kind? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return kind(info)
  }

  /// What `name` in the open directory `directory` names, without following
  /// a final symbolic link, or `nil` when nothing is there.
  static func kind(of name: String, in directory: Int32) -> Kind? {
    var info = stat()
    guard name.withCString({ fstatat(directory, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 else { return nil }
    return kind(info)
  }

  private static func kind(_ info: stat) -> Kind {
    switch info.st_mode & S_IFMT {
    case S_IFREG: .file(size: Int(info.st_size))
    case S_IFDIR: .directory
    case S_IFLNK: .symbolicLink
    default: .other
    }
  }

  /// What `path` names after following symbolic links, or `nil` when nothing is there.
  static func followedKind(of path: String) -> Kind? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .file(size: Int(info.st_size))
    case S_IFDIR: return .directory
    default: return .other
    }
  }

  /// The canonical absolute path with every symbolic link resolved, or `nil` when it does not exist.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Whether `path` (canonical) is `folder` (canonical) or inside it.
  static func isInside(_ path: String, folder: String) -> Bool {
    if folder == "/" { return path.hasPrefix("/") }
    return path == folder || path.hasPrefix(folder + "/")
  }

  /// The bytes as text, with each byte that is not part of valid UTF-8 shown as `\xHH`.
  static func showingInvalidBytes(_ bytes: [UInt8]) -> String {
    var shown = ""
    var index = 0
    while index < bytes.count {
      let length = min(4, bytes.count - index)
      var decoded = false
      for width in stride(from: length, through: 1, by: -1) {
        if let piece = String(validating: bytes[index..<index + width], as: UTF8.self), piece.count == 1 {
          shown += piece
          index += width
          decoded = true
          break
        }
      }
      if !decoded {
        shown += "\\x" + String(bytes[index], radix: 16, uppercase: true).leftPadded(to: 2)
        index += 1
      }
    }
    return shown
  }

  static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
  }
}

extension String {
  /// The string with `0` added in front until it has `width` characters.
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
