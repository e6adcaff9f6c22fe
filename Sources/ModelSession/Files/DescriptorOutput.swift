import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to a descriptor the process already holds: standard output, a
/// path such as `/dev/stdout`, `/dev/fd/3` or `/proc/self/fd/3`, a pipe.
///
/// On Linux those paths are links to `/proc/<pid>/fd/N`, and following them
/// reaches the file behind the descriptor: replacing that file would throw
/// away what a shell's `>>` was appending to, and the shell's `>` would keep
/// writing into the replaced file. So they are written through the
/// descriptor itself, at its offset, as the shell would.
///
/// A write whose reader has gone away (a pipe or FIFO closed part way) is an
/// `EPIPE` error, not a `SIGPIPE` that ends the process.
enum DescriptorOutput {
  /// The descriptor of this process that `path` names, through any chain of
  /// symbolic links, or `nil` when it names none (always on platforms whose
  /// `/dev/fd` entries are devices, which are written in place anyway).
  static func descriptor(namedBy path: String) -> Int32? {
    #if os(Linux)
    let ownFolders = ["/proc/\(getpid())/fd", "/proc/self/fd"]
    var current = path
    for _ in 0..<40 {
      let url = URL(fileURLWithPath: current)
      let parent = url.deletingLastPathComponent().path
      if let number = Int32(url.lastPathComponent), number >= 0, let resolved = realpath(parent, nil) {
        let folder = String(cString: resolved)
        free(resolved)
        let ownThread = folder.hasPrefix("/proc/\(getpid())/task/") && folder.hasSuffix("/fd")
        if ownFolders.contains(folder) || ownThread { return number }
      }
      var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(current, &target, target.count - 1)
      guard count > 0 else { return nil }
      let destination = String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current = destination.hasPrefix("/") ? destination : parent + "/" + destination
    }
    return nil
    #else
    return nil
    #endif
  }

  /// Writes every byte of `data` to `descriptor`; the system's message on failure.
  static func write(_ data: Data, to descriptor: Int32) -> String? {
    withoutBrokenPipeSignal(descriptor) {
      data.withUnsafeBytes { buffer -> String? in
        guard let base = buffer.baseAddress else { return nil }
        var offset = 0
        while offset < buffer.count {
          let written = systemWrite(descriptor, base + offset, buffer.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            return FileKind.lastError()
          }
          offset += written
        }
        return nil
      }
    }
  }

  /// Runs `body`, which writes to `descriptor`, so that a reader going away
  /// is `EPIPE` rather than `SIGPIPE`: on Linux the signal is blocked on this
  /// thread and the one `body` raised is taken off the pending set before it
  /// is unblocked; on Apple platforms the descriptor is told not to raise it.
  private static func withoutBrokenPipeSignal<Result>(_ descriptor: Int32, _ body: () -> Result) -> Result {
    #if os(Linux)
    var brokenPipe = sigset_t()
    sigemptyset(&brokenPipe)
    sigaddset(&brokenPipe, SIGPIPE)
    var previousMask = sigset_t()
    pthread_sigmask(SIG_BLOCK, &brokenPipe, &previousMask)
    var pending = sigset_t()
    sigpending(&pending)
    let pendingBefore = sigismember(&pending, SIGPIPE) == 1
    let result = body()
    sigpending(&pending)
    if !pendingBefore && sigismember(&pending, SIGPIPE) == 1 {
      var noWait = timespec(tv_sec: 0, tv_nsec: 0)
      _ = sigtimedwait(&brokenPipe, nil, &noWait)
    }
    pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    return result
    #elseif canImport(Darwin)
    _ = fcntl(descriptor, F_SETNOSIGPIPE, 1)
    return body()
    #else
    return body()
    #endif
  }
}

/// `write(2)`, named apart from ``DescriptorOutput/write(_:to:)``.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
