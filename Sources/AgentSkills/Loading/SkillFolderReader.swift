import ModelSession

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads files inside one skill folder without ever reading anything outside it.
///
/// Every file is opened once, relative to a descriptor of the skill folder,
/// one path component at a time, with `O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC`;
/// the opened descriptor is then checked with `fstat`, so what is read is what
/// was checked (no check-then-open race). A FIFO, device or socket is refused
/// without blocking; a symbolic link is either refused or resolved by this
/// reader itself, component by component from the folder's descriptor, so
/// that a link (or a link swapped in while reading) can never lead outside.
///
/// ```swift
/// let reader = SkillFolderReader(folder: canonicalFolder, symbolicLinks: .followInsideFolder)
/// let bytes = try reader.read("references/guide.md", limit: 1 << 20)
/// ```
struct SkillFolderReader: Sendable {
  /// What to do with a symbolic link met on the way to the file.
  enum LinkPolicy: Sendable {
    /// Any symbolic link in the path is an error.
    case refuse
    /// Links are resolved inside the folder; one that leads outside is an error.
    case followInsideFolder
  }

  /// The most symbolic links resolved for one path (Linux's own limit).
  static let maximumLinks = 40

  /// The skill folder's canonical path.
  let folder: String
  /// What to do with symbolic links.
  let symbolicLinks: LinkPolicy

  /// Reads the file at `relativePath` (relative to the folder), refusing files over `limit` bytes.
  func read(_ relativePath: String, limit: Int) throws(SkillFileReadError) -> [UInt8] {
    let descriptor = try openFile(relativePath)
    defer { close(descriptor) }
    return try Self.readAll(descriptor, path: relativePath, limit: limit)
  }

  /// Reads the file at `relativePath` through `root`, an open descriptor of
  /// the folder that the caller keeps and closes (see ``openFolder(for:)``).
  func read(_ relativePath: String, inFolder root: Int32, limit: Int) throws(SkillFileReadError) -> [UInt8] {
    let descriptor = try openFile(relativePath, inFolder: root)
    defer { close(descriptor) }
    return try Self.readAll(descriptor, path: relativePath, limit: limit)
  }

  /// Opens the regular file at `relativePath` for reading; the caller closes the descriptor.
  func openFile(_ relativePath: String) throws(SkillFileReadError) -> Int32 {
    try Self.check(relativePath)
    let root = try openFolder(for: relativePath)
    defer { close(root) }
    return try openFile(relativePath, inFolder: root)
  }

  /// Opens the folder itself, for reading `relativePath` (which an error names); the caller closes it.
  func openFolder(for relativePath: String) throws(SkillFileReadError) -> Int32 {
    let root = Self.openDirectory(folder)
    guard root >= 0 else {
      throw SkillFileReadError(
        path: relativePath, problem: .folderUnavailable(reason: FileKind.lastError()))
    }
    return root
  }

  /// Refuses an empty path, one with a NUL byte, and an absolute one.
  private static func check(_ relativePath: String) throws(SkillFileReadError) {
    guard !relativePath.isEmpty, !relativePath.contains("\0") else {
      throw SkillFileReadError(path: relativePath, problem: .invalidPath)
    }
    if relativePath.hasPrefix("/") { throw SkillFileReadError(path: relativePath, problem: .leavesFolder) }
  }

  /// Opens the regular file at `relativePath` through `root`, an open
  /// descriptor of the folder that stays open; the caller closes the file's descriptor.
  func openFile(_ relativePath: String, inFolder root: Int32) throws(SkillFileReadError) -> Int32 {
    func fail(_ problem: SkillFileReadError.Problem) -> SkillFileReadError {
      SkillFileReadError(path: relativePath, problem: problem)
    }
    try Self.check(relativePath)
    // The directories opened below the folder so far; `..` pops one.
    var directories: [Int32] = []
    defer { for directory in directories { close(directory) } }
    var pending = Array(Self.components(relativePath).reversed())
    var linksFollowed = 0
    while let name = pending.popLast() {
      if name == ".." {
        guard let below = directories.popLast() else { throw fail(.leavesFolder) }
        close(below)
        continue
      }
      let isLast = pending.isEmpty
      let current = directories.last ?? root
      let flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (isLast ? 0 : O_DIRECTORY)
      let descriptor = String(name).withCString { openat(current, $0, flags) }
      if descriptor >= 0 {
        if isLast { return try Self.checkRegularFile(descriptor, fail: fail) }
        directories.append(descriptor)
        continue
      }
      let openError = errno
      // Was it a symbolic link? Ask without following it.
      var info = stat()
      let linkStatus = String(name).withCString { fstatat(current, $0, &info, AT_SYMLINK_NOFOLLOW) }
      guard linkStatus == 0 else {
        throw fail(errno == ENOENT ? .notFound : .unreadable(reason: FileKind.lastError()))
      }
      guard info.st_mode & S_IFMT == S_IFLNK else {
        if openError == ENOTDIR || (!isLast && info.st_mode & S_IFMT != S_IFDIR) { throw fail(.notFound) }
        throw fail(.unreadable(reason: String(cString: strerror(openError))))
      }
      guard symbolicLinks == .followInsideFolder else { throw fail(.symbolicLink) }
      linksFollowed += 1
      guard linksFollowed <= Self.maximumLinks else { throw fail(.tooManyLinks) }
      guard let target = Self.linkTarget(current, name) else {
        throw fail(.unreadable(reason: "the symbolic link changed while it was read"))
      }
      var rest = Substring(target)
      if target.hasPrefix("/") {
        // An absolute link is followed only when it names a place inside the folder.
        guard FileSystem.isInside(target, folder: folder) else { throw fail(.leavesFolder) }
        rest = target.dropFirst(folder == "/" ? 1 : folder.count)
        while let below = directories.popLast() { close(below) }
      }
      pending.append(contentsOf: Self.components(rest).reversed())
    }
    throw fail(.notARegularFile(kind: "a folder"))
  }

  // MARK: - Steps

  /// The components of a relative path, without empty ones and `.`.
  private static func components<S: StringProtocol>(_ path: S) -> [Substring] {
    String(path).split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
  }

  private static func openDirectory(_ path: String) -> Int32 {
    path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
  }

  private static func linkTarget(_ directory: Int32, _ name: Substring) -> String? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = String(name).withCString { path in
      buffer.withUnsafeMutableBufferPointer { raw in
        raw.baseAddress.map { base in
          base.withMemoryRebound(to: CChar.self, capacity: raw.count) {
            readlinkat(directory, path, $0, raw.count)
          }
        } ?? -1
      }
    }
    guard count > 0, count < buffer.count else { return nil }
    return String(decoding: buffer[..<count], as: UTF8.self)
  }

  /// Keeps `descriptor` when it is a regular file; closes it and throws otherwise.
  private static func checkRegularFile(
    _ descriptor: Int32, fail: (SkillFileReadError.Problem) -> SkillFileReadError
  ) throws(SkillFileReadError) -> Int32 {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let reason = FileKind.lastError()
      close(descriptor)
      throw fail(.unreadable(reason: reason))
    }
    let kind = info.st_mode & S_IFMT
    guard kind == S_IFREG else {
      close(descriptor)
      throw fail(.notARegularFile(kind: FileKind.name(kind)))
    }
    return descriptor
  }

  /// Reads everything from `descriptor`, refusing more than `limit` bytes.
  static func readAll(_ descriptor: Int32, path: String, limit: Int) throws(SkillFileReadError) -> [UInt8] {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw SkillFileReadError(path: path, problem: .unreadable(reason: FileKind.lastError()))
    }
    let size = Int(info.st_size)
    if size > limit { throw SkillFileReadError(path: path, problem: .tooLarge(size: size, limit: limit)) }
    // One byte more than expected, so that a file that grew since `fstat` is noticed.
    let capacity = min(size, limit) + 1
    var total = 0
    var failure: String?
    // Read straight into the array's storage: no zero-filling first.
    let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initializedCount in
      defer { initializedCount = total }
      guard let base = buffer.baseAddress else { return }
      while total < buffer.count {
        let count = FileSystem.systemRead(descriptor, base + total, buffer.count - total)
        if count == 0 { break }
        if count < 0 {
          if errno == EINTR { continue }
          failure = FileKind.lastError()
          return
        }
        total += count
      }
    }
    if let failure { throw SkillFileReadError(path: path, problem: .unreadable(reason: failure)) }
    if total == capacity {
      throw SkillFileReadError(
        path: path,
        problem: capacity > limit
          ? .tooLarge(size: total, limit: limit) : .unreadable(reason: "the file changed while it was read"))
    }
    return bytes
  }
}
