import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes whole files, the one way every part of ContextKit writes a file
/// (reports, records, skill activations, demo output).
///
/// ```swift
/// try FileWriter.write(Data(page.html.utf8), to: "report.html")
/// try FileWriter.write(Data(page.html.utf8), to: "-")  // standard output
/// ```
///
/// What happens depends on what the path names:
/// - `-`: the bytes go to standard output.
/// - A descriptor this process has open (`/dev/stdout`, `/dev/fd/N`,
///   `/proc/self/fd/N`, or a link to one): the bytes are written through the
///   descriptor, at its offset, as a shell's `>` or `>>` would; the file
///   behind it is never replaced.
/// - Nothing: a new file, written whole or not at all (below).
/// - A regular file: replaced atomically, if this process's user may write
///   it (a read-only file is refused, as a shell's `>` would refuse it). The bytes go to a temporary file in
///   the same folder, which gets the old file's permissions, owner and group,
///   is flushed, then renamed over the old one: a crash leaves the old file or
///   the new one, never half of one. If the owner cannot be kept (only the
///   owner or root can give a file away), the file is left as it was and the
///   write fails.
/// - A symbolic link: followed. Its target is what gets replaced (atomically,
///   as above) or written; the link stays a link. A link to nothing is refused.
/// - A character device (`/dev/null`, `/dev/stdout`, a terminal) or a FIFO:
///   written in place, as a shell's `>` would; never replaced by a file. A
///   FIFO that nobody reads is refused at once instead of blocking; a reader
///   that goes away part way is an error (`EPIPE`), never a `SIGPIPE`.
/// - A folder, socket or block device: refused.
///
/// Temporary files are named `.NAME.PID-RANDOM.contextkit-tmp`; each write
/// first removes those whose process has ended, so writes interrupted by a
/// crash or `kill -9` do not pile up.
public enum FileWriter {
  /// The end of every temporary file's name.
  public static let temporarySuffix = ".contextkit-tmp"

  /// Writes `data` to `path` (see ``FileWriter``); with `creatingFolders`, missing folders are made first.
  public static func write(
    _ data: Data, to path: String, creatingFolders: Bool = false
  ) throws(FileAccessError) {
    func fail(_ reason: FileAccessError.Reason) -> FileAccessError {
      FileAccessError(path: path, operation: .write, reason: reason)
    }
    if path == "-" {
      if let message = writeAll(STDOUT_FILENO, data) { throw fail(.system(call: "write", message: message)) }
      return
    }
    guard !path.isEmpty else { throw fail(.system(call: "open", message: "the path is empty")) }
    if let descriptor = DescriptorOutput.descriptor(namedBy: path) {
      if let message = writeAll(descriptor, data) { throw fail(.system(call: "write", message: message)) }
      return
    }
    var info = stat()
    guard lstat(path, &info) == 0 else {
      guard errno == ENOENT else { throw fail(.system(call: "lstat", message: FileKind.lastError())) }
      if creatingFolders { try createFolders(for: path, fail: fail) }
      try replace(path, existing: nil, fail: fail)
      return
    }
    if info.st_mode & S_IFMT == S_IFLNK {
      guard stat(path, &info) == 0 else {
        if errno == ENOENT { throw fail(.danglingSymbolicLink) }
        throw fail(.system(call: "stat", message: FileKind.lastError()))
      }
      if info.st_mode & S_IFMT == S_IFREG {
        guard let target = realpath(path, nil) else {
          throw fail(.system(call: "realpath", message: FileKind.lastError()))
        }
        defer { free(target) }
        try replace(String(cString: target), existing: info, fail: fail)
        return
      }
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: try replace(path, existing: info, fail: fail)
    case S_IFCHR, S_IFIFO: try writeInPlace(path, data, fail: fail)
    case S_IFDIR: throw fail(.isAFolder)
    default: throw fail(.notARegularFile(kind: FileKind.name(info.st_mode)))
    }
    return

    func replace(
      _ target: String, existing: stat?, fail: (FileAccessError.Reason) -> FileAccessError
    )
      throws(FileAccessError)
    {
      try replaceAtomically(target, with: data, existing: existing, fail: fail)
    }
  }

  // MARK: - Replacing a regular file

  private static func replaceAtomically(
    _ path: String, with data: Data, existing: stat?, fail: (FileAccessError.Reason) -> FileAccessError
  ) throws(FileAccessError) {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    let name = url.lastPathComponent
    // Replacing goes through the folder, which may be writable when the file is not:
    // a file its owner made read-only is refused, as `>` would refuse it.
    if existing != nil, faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0, errno == EACCES {
      throw fail(.readOnly)
    }
    removeStaleTemporaryFiles(in: folder, for: name)
    let temporary =
      folder + "/." + name + ".\(getpid())-"
      + String(UInt64.random(in: 0...UInt64.max), radix: 16) + temporarySuffix
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw fail(.system(call: "open", message: FileKind.lastError())) }
    var failure: FileAccessError.Reason?
    if let message = writeAll(descriptor, data) { failure = .system(call: "write", message: message) }
    if failure == nil, let existing {
      // The owner first: changing it clears the set-user-ID and set-group-ID bits.
      if existing.st_uid != geteuid() || existing.st_gid != getegid(),
        fchown(descriptor, existing.st_uid, existing.st_gid) != 0
      {
        failure = .cannotKeepOwner(FileKind.lastError())
      } else if fchmod(descriptor, existing.st_mode & 0o7777) != 0 {
        failure = .system(call: "fchmod", message: FileKind.lastError())
      }
    }
    if failure == nil && fsync(descriptor) != 0 {
      failure = .system(call: "fsync", message: FileKind.lastError())
    }
    close(descriptor)
    if failure == nil && rename(temporary, path) != 0 {
      failure = .system(call: "rename", message: FileKind.lastError())
    }
    if let failure {
      unlink(temporary)
      throw fail(failure)
    }
    // Make the rename itself durable; a failure here leaves a complete file either way.
    let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
      fsync(directory)
      close(directory)
    }
  }

  /// Removes `.NAME.PID-RANDOM.contextkit-tmp` files in `folder` whose process has ended.
  static func removeStaleTemporaryFiles(in folder: String, for name: String) {
    guard let directory = opendir(folder) else { return }
    defer { closedir(directory) }
    let prefix = "." + name + "."
    let ownProcess = getpid()
    while let entry = readdir(directory) {
      let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard entryName.hasPrefix(prefix), entryName.hasSuffix(temporarySuffix) else { continue }
      let middle = entryName.dropFirst(prefix.count).dropLast(temporarySuffix.count)
      guard let dash = middle.firstIndex(of: "-"), let process = pid_t(middle[..<dash]), process > 0,
        process != ownProcess
      else { continue }
      // Signal 0 only asks whether the process exists.
      if kill(process, 0) != 0 && errno == ESRCH {
        unlink(folder + "/" + entryName)
      }
    }
  }

  private static func createFolders(
    for path: String, fail: (FileAccessError.Reason) -> FileAccessError
  ) throws(FileAccessError) {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw fail(.system(call: "mkdir", message: "cannot create the folder \(folder.path)"))
    }
  }

  // MARK: - Writing a device or FIFO in place

  private static func writeInPlace(
    _ path: String, _ data: Data, fail: (FileAccessError.Reason) -> FileAccessError
  ) throws(FileAccessError) {
    // Non-blocking, so that a FIFO without a reader is an error now rather than a hang.
    let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENXIO { throw fail(.fifoWithoutReader) }
      throw fail(.system(call: "open", message: FileKind.lastError()))
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw fail(.system(call: "fstat", message: FileKind.lastError()))
    }
    // What was opened must still be a device or FIFO (not a file swapped in meanwhile).
    let kind = info.st_mode & S_IFMT
    guard kind == S_IFCHR || kind == S_IFIFO else {
      throw fail(.notARegularFile(kind: FileKind.name(info.st_mode)))
    }
    let flags = fcntl(descriptor, F_GETFL)
    if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
    if let message = writeAll(descriptor, data) { throw fail(.system(call: "write", message: message)) }
  }

  /// Writes every byte; the system's message on failure.
  private static func writeAll(_ descriptor: Int32, _ data: Data) -> String? {
    DescriptorOutput.write(data, to: descriptor)
  }
}
