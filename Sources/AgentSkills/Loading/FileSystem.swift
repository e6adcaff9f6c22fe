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
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .file(size: Int(info.st_size))
    case S_IFDIR: return .directory
    case S_IFLNK: return .symbolicLink
    default: return .other
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

  /// The names in a directory, sorted, without `.` and `..`; `nil` when it cannot be listed.
  static func contentsOfDirectory(_ path: String) -> [String]? {
    guard let directory = opendir(path) else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
  }

  /// What a file of type `mode & S_IFMT` is, in words ("a folder", "a FIFO (named pipe)", ...).
  static func kindName(_ type: mode_t) -> String {
    switch type {
    case S_IFREG: "a regular file"
    case S_IFDIR: "a folder"
    case S_IFLNK: "a symbolic link"
    case S_IFIFO: "a FIFO (named pipe)"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }

  /// The text of `errno`.
  static func lastErrorDescription() -> String {
    String(cString: strerror(errno))
  }
}
