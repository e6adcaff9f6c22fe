import Foundation
import ModelSession
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths that name a descriptor the process already has open (`/dev/stdout`,
/// `/dev/fd/N`, `/proc/self/fd/N`), and pipes whose reader goes away: what a
/// careless user gives as an output path.
@Suite("FileWriter writes through open descriptors", .timeLimit(.minutes(10)))
struct FileWriterDescriptorTests {
  private static func inode(_ path: String) -> ino_t {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_ino : 0
  }

  @Test(arguments: ["/dev/fd/", "/proc/self/fd/"])
  func `a path naming a descriptor opened for appending appends, as the shell's >> would`(
    prefix: String
  )
    throws
  {
    #if os(Linux)
    let temporary = try TemporaryFolder(named: "ck-fd")
    defer { temporary.remove() }
    let folder = temporary.path
    let log = folder + "/build.log"
    try Data("earlier lines\n".utf8).write(to: URL(fileURLWithPath: log))
    let before = Self.inode(log)
    let descriptor = open(log, O_WRONLY | O_APPEND | O_CLOEXEC)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    try FileWriter.write(Data("the report\n".utf8), to: prefix + String(descriptor))
    // The log keeps what it had (the old writer renamed a new file over it) and stays the same file.
    #expect(try String(contentsOfFile: log, encoding: .utf8) == "earlier lines\nthe report\n")
    #expect(Self.inode(log) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["build.log"])
    #endif
  }

  @Test func `a link to a descriptor's path is followed to the descriptor`() throws {
    #if os(Linux)
    let temporary = try TemporaryFolder(named: "ck-fd")
    defer { temporary.remove() }
    let folder = temporary.path
    let log = folder + "/out.txt"
    let descriptor = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    #expect(write(descriptor, "head ", 5) == 5)
    // `/dev/stdout` is such a link (to /proc/self/fd/1); this one names the test's own descriptor.
    #expect(symlink("/proc/self/fd/\(descriptor)", folder + "/stdout-like") == 0)
    try FileWriter.write(Data("tail".utf8), to: folder + "/stdout-like")
    #expect(try String(contentsOfFile: log, encoding: .utf8) == "head tail")
    #endif
  }

  @Test func `a descriptor opened only for reading is an error, and its file is unchanged`() throws {
    #if os(Linux)
    let temporary = try TemporaryFolder(named: "ck-fd")
    defer { temporary.remove() }
    let folder = temporary.path
    let file = folder + "/input.txt"
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: file))
    let descriptor = open(file, O_RDONLY | O_CLOEXEC)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    #expect(throws: FileAccessError.self) {
      try FileWriter.write(Data("clobbered".utf8), to: "/dev/fd/\(descriptor)")
    }
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me")
    #endif
  }

  @Test func `a link to a folder is refused`() throws {
    let temporary = try TemporaryFolder(named: "ck-fd")
    defer { temporary.remove() }
    let folder = temporary.path
    #expect(symlink("/tmp", folder + "/to-tmp") == 0)
    #expect(throws: FileAccessError(path: folder + "/to-tmp", operation: .write, reason: .isAFolder)) {
      try FileWriter.write(Data("x".utf8), to: folder + "/to-tmp")
    }
  }

  @Test func `a FIFO whose reader goes away is an error, not a SIGPIPE that ends the process`() throws {
    let temporary = try TemporaryFolder(named: "ck-fd")
    defer { temporary.remove() }
    let folder = temporary.path
    let fifo = folder + "/pipe"
    #expect(mkfifo(fifo, 0o644) == 0)
    // The reader takes a little and closes: the rest of a 1 MiB write has nowhere to go.
    let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    #expect(reader >= 0)
    let closer = Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      var polled = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
      _ = poll(&polled, 1, 10_000)
      _ = read(reader, &buffer, buffer.count)
      close(reader)
    }
    closer.start()
    let outcome = DeadlineThread.run(deadline: .seconds(30)) { () -> FileAccessError? in
      do throws(FileAccessError) {
        try FileWriter.write(Data(repeating: 0x61, count: 1 << 20), to: fifo)
        return nil
      } catch {
        return error
      }
    }
    let error = try #require(outcome ?? nil)
    #expect(error.description.contains("Broken pipe"), "\(error)")
  }
}
