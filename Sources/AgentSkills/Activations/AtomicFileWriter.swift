import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file's contents all at once: write a temporary file beside it,
/// flush it to disk, then rename it over the destination.
enum AtomicFileWriter {
  static func replace(_ url: URL, with data: Data) throws(SkillActivationsError) {
    let path = url.path
    let folder = url.deletingLastPathComponent().path
    let temporary = folder + "/." + url.lastPathComponent + "." + UUID().uuidString + ".tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw .cannotWrite(path: path, reason: FileSystem.lastErrorDescription())
    }
    var failure: String?
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let written = write(descriptor, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = FileSystem.lastErrorDescription()
          return
        }
        offset += written
      }
    }
    if failure == nil && fsync(descriptor) != 0 { failure = FileSystem.lastErrorDescription() }
    close(descriptor)
    if failure == nil && rename(temporary, path) != 0 { failure = FileSystem.lastErrorDescription() }
    if let failure {
      unlink(temporary)
      throw .cannotWrite(path: path, reason: failure)
    }
    // Make the rename itself durable; a failure here leaves a complete file either way.
    let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
      fsync(directory)
      close(directory)
    }
  }
}
