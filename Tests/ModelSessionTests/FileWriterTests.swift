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
}
