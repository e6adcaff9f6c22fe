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

  /// The outcome of reading a whole file with a size limit.
  enum ReadResult {
    case contents([UInt8])
    case tooLarge(size: Int)
    case failed(reason: String)
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

  /// Reads a whole file, refusing files larger than `limit` bytes.
  static func readFile(_ path: String, limit: Int) -> ReadResult {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failed(reason: lastErrorDescription()) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return .failed(reason: lastErrorDescription()) }
    let size = Int(info.st_size)
    if size > limit { return .tooLarge(size: size) }
    // One byte more than expected, so that a file that grew since `fstat` is noticed.
    let capacity = min(size, limit) + 1
    var bytes = [UInt8](repeating: 0, count: capacity)
    var total = 0
    let failure: String? = bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return nil }
      while total < buffer.count {
        let count = systemRead(descriptor, base + total, buffer.count - total)
        if count == 0 { break }
        if count < 0 {
          if errno == EINTR { continue }
          return lastErrorDescription()
        }
        total += count
      }
      return nil
    }
    if let failure { return .failed(reason: failure) }
    if total == capacity {
      return capacity > limit ? .tooLarge(size: total) : .failed(reason: "the file changed while it was read")
    }
    bytes.removeSubrange(total...)
    return .contents(bytes)
  }

  private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int
  {
    read(descriptor, buffer, count)
  }

  /// The text of `errno`.
  static func lastErrorDescription() -> String {
    String(cString: strerror(errno))
  }
}
