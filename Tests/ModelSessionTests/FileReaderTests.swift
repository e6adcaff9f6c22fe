import Foundation
import ModelSession
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("FileReader says what a path is", .timeLimit(.minutes(10)))
struct FileReaderTests {
  @Test func `a character device is named as one`() {
    #expect(
      throws: FileAccessError(
        path: "/dev/null", operation: .read, reason: .notARegularFile(kind: "a character device"))
    ) {
      try FileReader.read("/dev/null", limit: 100)
    }
  }

  @Test func `a folder, a FIFO and a file over the limit are typed errors`() throws {
    let scratch = try Scratch()
    #expect(throws: FileAccessError(path: scratch.path, operation: .read, reason: .isAFolder)) {
      try FileReader.read(scratch.path, limit: 100)
    }
    let fifo = scratch.file("pipe")
    #expect(mkfifo(fifo, 0o644) == 0)
    let outcome = DeadlineThread.run(deadline: .seconds(10)) { () -> String in
      do throws(FileAccessError) {
        _ = try FileReader.read(fifo, limit: 100)
        return "read"
      } catch {
        return error.description
      }
    }
    #expect(outcome == "cannot read \(fifo): it is a FIFO (named pipe), not a regular file")
    try FileWriter.write(Data("12345".utf8), to: scratch.file("five"))
    #expect(
      throws: FileAccessError(
        path: scratch.file("five"), operation: .read, reason: .tooLarge(size: 5, limit: 4))
    ) {
      try FileReader.read(scratch.file("five"), limit: 4)
    }
    #expect(
      FileAccessError(path: "/tmp/five", operation: .read, reason: .tooLarge(size: 5, limit: 4)).description
        == "cannot read /tmp/five: it is 5 bytes, more than the limit of 4")
    #expect(try FileReader.read(scratch.file("five"), limit: 5) == Data("12345".utf8))
  }

  @Test func `a file longer than its size on opening is held to the limit as it is read`() throws {
    #if os(Linux)
    // A file under /proc says it is empty (st_size 0) and reads as text, like a file that grew after
    // it was opened: the limit is checked again as the bytes arrive.
    let path = "/proc/version"
    let whole = try FileReader.read(path, limit: 1 << 20)
    #expect(String(decoding: whole.prefix(14), as: UTF8.self) == "Linux version ")
    #expect(try FileReader.read(path, limit: whole.count) == whole)
    #expect(
      throws: FileAccessError(
        path: path, operation: .read, reason: .tooLarge(size: whole.count, limit: whole.count - 1))
    ) {
      try FileReader.read(path, limit: whole.count - 1)
    }
    #endif
  }
}
