import ModelSession

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads part of a file inside a skill folder: the file is opened with
/// ``SkillFolderReader`` (relative to the folder's descriptor, no link out,
/// no FIFO or device), and only the bytes asked for are read, with `pread`.
struct ResourceWindowReader {
  let reader: SkillFolderReader

  init(canonicalFolder: String) {
    reader = SkillFolderReader(folder: canonicalFolder, symbolicLinks: .followInsideFolder)
  }

  /// At most `count` bytes from byte `offset` of the file at `relativePath`, and the file's size.
  func read(
    _ relativePath: String, offset: Int, count: Int
  ) throws(SkillFileReadError) -> (bytes: [UInt8], fileSize: Int) {
    let descriptor = try reader.openFile(relativePath)
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw SkillFileReadError(
        path: relativePath, problem: .unreadable(reason: FileKind.lastError()))
    }
    let size = Int(info.st_size)
    let start = min(max(0, offset), size)
    var bytes = [UInt8](repeating: 0, count: max(0, min(count, size - start)))
    var total = 0
    let failure: String? = bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return nil }
      while total < buffer.count {
        let got = pread(descriptor, base + total, buffer.count - total, off_t(start + total))
        if got == 0 { break }
        if got < 0 {
          if errno == EINTR { continue }
          return FileKind.lastError()
        }
        total += got
      }
      return nil
    }
    if let failure { throw SkillFileReadError(path: relativePath, problem: .unreadable(reason: failure)) }
    bytes.removeSubrange(total...)
    return (bytes, size)
  }
}
