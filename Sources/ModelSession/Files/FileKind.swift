#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Names for file types, and `errno` as text, for the modules that read and write files.
package enum FileKind {
  /// What a file of type `mode & S_IFMT` is, in words ("a FIFO (named pipe)").
  package static func name(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: "a regular file"
    case S_IFDIR: "a folder"
    case S_IFLNK: "a symbolic link"
    case S_IFIFO: "a FIFO (named pipe)"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "an unknown kind of file"
    }
  }

  /// The system's message for the current `errno`.
  package static func lastError() -> String {
    String(cString: strerror(errno))
  }
}
