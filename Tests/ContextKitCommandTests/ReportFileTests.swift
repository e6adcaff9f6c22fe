import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite(.timeLimit(.minutes(5))) struct `contextkit writes reports without clobbering` {
  private func scratch() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("ck-out-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test func `--html - writes the page to standard output`() throws {
    let records = try smallRecordsFile()
    let (output, _, status) = try runContextKit(["analyze", records.path, "--html", "-"])
    #expect(status == 0)
    let text = String(decoding: output, as: UTF8.self)
    #expect(text.contains("<svg"))
    #expect(text.contains("</html>"))
  }

  @Test func `--html to /dev/null or a FIFO writes in place, never replacing it`() throws {
    let records = try smallRecordsFile()
    let (_, _, status) = try runContextKit(["analyze", records.path, "--html", "/dev/null"])
    #expect(status == 0)
    var info = stat()
    #expect(lstat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let fifo = folder + "/report.html"
    #expect(mkfifo(fifo, 0o644) == 0)
    let (_, error, fifoStatus) = try runContextKit(["analyze", records.path, "--html", fifo])
    #expect(fifoStatus == 1)
    #expect(
      String(decoding: error, as: UTF8.self).contains("it is a FIFO (named pipe) and nothing is reading it"))
    #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["report.html"])
  }

  @Test func `an existing 0600 report stays 0600`() throws {
    let records = try smallRecordsFile()
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let report = folder + "/report.html"
    try Data("old".utf8).write(to: URL(fileURLWithPath: report))
    #expect(chmod(report, 0o600) == 0)
    #expect(try runContextKit(["analyze", records.path, "--html", report]).status == 0)
    var info = stat()
    #expect(stat(report, &info) == 0 && info.st_mode & 0o7777 == 0o600)
    #expect(try String(contentsOfFile: report, encoding: .utf8).contains("<svg"))
  }

  @Test func `an empty folder or a FIFO given as the records is named for what it is`() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // A folder is read file by file; an empty one says so.
    let (_, error, status) = try runContextKit(["analyze", folder])
    #expect(status == 1)
    #expect(
      String(decoding: error, as: UTF8.self).contains(
        "\(folder): cannot read generation records: the folder holds no records files"))
    let fifo = folder + "/records.json"
    #expect(mkfifo(fifo, 0o644) == 0)
    let (_, fifoError, fifoStatus) = try runContextKit(["analyze", fifo])
    #expect(fifoStatus == 1)
    #expect(
      String(decoding: fifoError, as: UTF8.self).contains("it is a FIFO (named pipe), not a regular file"))
  }
}
