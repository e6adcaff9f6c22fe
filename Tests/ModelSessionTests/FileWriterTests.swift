import Foundation
import ModelSession
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private func kind(_ path: String, following: Bool = false) -> mode_t {
  var info = stat()
  let status = following ? stat(path, &info) : lstat(path, &info)
  return status == 0 ? info.st_mode & S_IFMT : 0
}

private func mode(_ path: String) -> mode_t {
  var info = stat()
  return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
}

private func text(_ path: String) -> String? {
  try? String(contentsOfFile: path, encoding: .utf8)
}

@Suite("FileWriter never clobbers what is not a regular file", .timeLimit(.minutes(10)))
struct FileWriterTests {
  @Test func `a new file is written whole, and an existing one replaced`() throws {
    let scratch = try Scratch()
    try FileWriter.write(Data("one".utf8), to: scratch.file("a.txt"))
    try FileWriter.write(Data("two".utf8), to: scratch.file("a.txt"))
    #expect(text(scratch.file("a.txt")) == "two")
    #expect(try scratch.names() == ["a.txt"])
    try FileWriter.write(Data("deep".utf8), to: scratch.file("x/y/b.txt"), creatingFolders: true)
    #expect(text(scratch.file("x/y/b.txt")) == "deep")
  }

  @Test func `a regular file is replaced by a rename, never rewritten in place`() throws {
    let scratch = try Scratch()
    let path = scratch.file("state.json")
    try FileWriter.write(Data("old and complete".utf8), to: path)
    var before = stat()
    #expect(stat(path, &before) == 0)
    // A reader that opened the old file keeps reading the old bytes whole: the
    // new content went to another file that took the name.
    let reader = open(path, O_RDONLY)
    #expect(reader >= 0)
    defer { close(reader) }
    try FileWriter.write(Data("new".utf8), to: path)
    var after = stat()
    #expect(stat(path, &after) == 0)
    #expect(after.st_ino != before.st_ino)
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = read(reader, &buffer, buffer.count)
    #expect(count == 16)
    #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "old and complete")
    #expect(text(path) == "new")
  }

  @Test func `a 0600 file stays 0600, and its owner and group are kept`() throws {
    let scratch = try Scratch()
    let path = scratch.file("secret.json")
    try FileWriter.write(Data("old".utf8), to: path)
    #expect(chmod(path, 0o600) == 0)
    try FileWriter.write(Data("new".utf8), to: path)
    #expect(mode(path) == 0o600)
    #expect(text(path) == "new")
    #expect(chmod(path, 0o640) == 0)
    try FileWriter.write(Data("newer".utf8), to: path)
    #expect(mode(path) == 0o640)
    if geteuid() == 0 {  // only root can give a file away
      #expect(chown(path, 1234, 5678) == 0)
      try FileWriter.write(Data("owned".utf8), to: path)
      var info = stat()
      #expect(stat(path, &info) == 0)
      #expect((info.st_uid, info.st_gid) == (1234, 5678))
      #expect(info.st_mode & 0o7777 == 0o640)
    }
  }

  @Test func `a symbolic link is followed: its target is replaced and the link stays`() throws {
    let scratch = try Scratch()
    try FileWriter.write(Data("target".utf8), to: scratch.file("real.json"))
    #expect(chmod(scratch.file("real.json"), 0o600) == 0)
    #expect(symlink("real.json", scratch.file("link.json")) == 0)
    try FileWriter.write(Data("through the link".utf8), to: scratch.file("link.json"))
    #expect(kind(scratch.file("link.json")) == S_IFLNK)
    #expect(text(scratch.file("real.json")) == "through the link")
    #expect(mode(scratch.file("real.json")) == 0o600)
    #expect(symlink("missing.json", scratch.file("dangling.json")) == 0)
    #expect(
      throws: FileAccessError(
        path: scratch.file("dangling.json"), operation: .write, reason: .danglingSymbolicLink)
    ) {
      try FileWriter.write(Data("x".utf8), to: scratch.file("dangling.json"))
    }
    #expect(kind(scratch.file("dangling.json")) == S_IFLNK)
  }

  @Test func `a device is written in place and stays a device`() throws {
    try FileWriter.write(Data("discarded".utf8), to: "/dev/null")
    #expect(kind("/dev/null") == S_IFCHR)
    if kind("/dev/full") == S_IFCHR {
      #expect(throws: FileAccessError.self) { try FileWriter.write(Data("x".utf8), to: "/dev/full") }
      #expect(kind("/dev/full") == S_IFCHR)
    }
  }

  @Test func `a FIFO is written in place when read, and refused at once when not`() throws {
    let scratch = try Scratch()
    let fifo = scratch.file("pipe")
    #expect(mkfifo(fifo, 0o644) == 0)
    let refused = DeadlineThread.run(deadline: .seconds(10)) { () -> FileAccessError? in
      do throws(FileAccessError) {
        try FileWriter.write(Data("nobody reads".utf8), to: fifo)
        return nil
      } catch {
        return error
      }
    }
    #expect(
      refused
        == FileAccessError?.some(FileAccessError(path: fifo, operation: .write, reason: .fifoWithoutReader)))
    // With a reader (opened without blocking, before the write), the bytes go through the pipe.
    let reader = open(fifo, O_RDONLY | O_NONBLOCK)
    #expect(reader >= 0)
    defer { close(reader) }
    try FileWriter.write(Data("hello through a pipe".utf8), to: fifo)
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = read(reader, &buffer, buffer.count)
    #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "hello through a pipe")
    #expect(kind(fifo) == S_IFIFO)
    #expect(try scratch.names() == ["pipe"])
  }

  @Test func `a folder, socket or block device is refused`() throws {
    let scratch = try Scratch()
    #expect(throws: FileAccessError(path: scratch.path, operation: .write, reason: .isAFolder)) {
      try FileWriter.write(Data("x".utf8), to: scratch.path)
    }
    #expect(
      FileAccessError(path: "/tmp", operation: .write, reason: .isAFolder).description
        == "cannot write /tmp: it is a folder, not a file")
  }

  @Test func `stale temporary files of ended processes are removed by the next write`() throws {
    let scratch = try Scratch()
    let target = scratch.file("state.json")
    try FileWriter.write(Data("v1".utf8), to: target)
    // Processes killed with SIGKILL while writing leave their temporary files behind.
    var ended: [pid_t] = []
    for _ in 0..<3 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sleep")
      process.arguments = ["30"]
      try process.run()
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      ended.append(process.processIdentifier)
    }
    for (index, pid) in ended.enumerated() {
      try Data("partial".utf8).write(
        to: URL(fileURLWithPath: scratch.file(".state.json.\(pid)-\(index)" + FileWriter.temporarySuffix)))
    }
    // One of a live process (this one's parent) and one of another file stay.
    let live = ".state.json.\(getppid())-live" + FileWriter.temporarySuffix
    let other = ".other.json.\(ended[0])-x" + FileWriter.temporarySuffix
    try Data("busy".utf8).write(to: URL(fileURLWithPath: scratch.file(live)))
    try Data("other".utf8).write(to: URL(fileURLWithPath: scratch.file(other)))
    try FileWriter.write(Data("v2".utf8), to: target)
    #expect(try scratch.names() == [live, other, "state.json"].sorted())
    #expect(text(target) == "v2")
  }

  /// Paths that name a descriptor the process already has open (`/dev/stdout`,
  /// `/dev/fd/N`, `/proc/self/fd/N`), and pipes whose reader goes away: what a
  /// careless user gives as an output path.
  @Suite("FileWriter writes through open descriptors") struct Descriptors {
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
}
