import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole regular files given by a path, with a size limit, and says
/// plainly what is wrong otherwise: a folder, a FIFO or device (opened without
/// blocking and refused), a file over the limit.
///
/// ```swift
/// let data = try FileReader.read("records.json", limit: 256 << 20)
/// ```
public enum FileReader {
  /// The bytes of the regular file at `path` (symbolic links followed), at most `limit` bytes.
  public static func read(_ path: String, limit: Int) throws(FileAccessError) -> Data {
    try read(fileSystemPath: Array(path.utf8CString), named: path, limit: limit)
  }

  /// The bytes of the regular file at a path given as the file system's
  /// bytes (NUL-terminated; a name need not be UTF-8), called `name` in errors.
  package static func read(
    fileSystemPath: [CChar], named path: String, limit: Int
  ) throws(FileAccessError) -> Data {
    func fail(_ reason: FileAccessError.Reason) -> FileAccessError {
      FileAccessError(path: path, operation: .read, reason: reason)
    }
    let descriptor = open(fileSystemPath, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else { throw fail(.system(call: "open", message: FileKind.lastError())) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw fail(.system(call: "fstat", message: FileKind.lastError()))
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw fail(.isAFolder)
    default: throw fail(.notARegularFile(kind: FileKind.name(info.st_mode)))
    }
    let size = Int(info.st_size)
    guard size <= limit else { throw fail(.tooLarge(size: size, limit: limit)) }
    // One byte more than the limit allows, so that a file that grew since `fstat` is noticed.
    var bytes = [UInt8](repeating: 0, count: min(size, limit) + 1)
    var total = 0
    while true {
      if total == bytes.count {
        guard bytes.count <= limit else { throw fail(.tooLarge(size: total, limit: limit)) }
        bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - bytes.count)))
      }
      let count = bytes.withUnsafeMutableBytes { buffer in
        systemRead(descriptor, buffer.baseAddress.map { $0 + total }, buffer.count - total)
      }
      if count == 0 { break }
      if count < 0 {
        if errno == EINTR { continue }
        throw fail(.system(call: "read", message: FileKind.lastError()))
      }
      total += count
    }
    return Data(bytes[..<total])
  }
}

/// `read(2)`, named apart from ``FileReader/read(_:limit:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}
