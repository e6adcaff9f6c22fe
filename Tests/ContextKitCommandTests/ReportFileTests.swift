import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("contextkit writes reports without clobbering", .timeLimit(.minutes(10))) struct ReportFileTests {
  @Test func `--html - writes the page to standard output`() throws {
    try withRecordsAndOutput { records, _ in
      let (output, _, status) = try runContextKit(["analyze", records.path, "--html", "-"])
      #expect(status == 0)
      let text = String(decoding: output, as: UTF8.self)
      #expect(text.contains("<svg"))
      #expect(text.contains("</html>"))
    }
  }

  @Test func `--html to /dev/null or a FIFO writes in place, never replacing it`() throws {
    try withRecordsAndOutput { records, temporary in
      let (_, _, status) = try runContextKit(["analyze", records.path, "--html", "/dev/null"])
      #expect(status == 0)
      var info = stat()
      #expect(lstat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
      let folder = temporary.path
      let fifo = folder + "/report.html"
      #expect(mkfifo(fifo, 0o644) == 0)
      let (_, error, fifoStatus) = try runContextKit(["analyze", records.path, "--html", fifo])
      #expect(fifoStatus == 1)
      #expect(
        String(decoding: error, as: UTF8.self).contains("it is a FIFO (named pipe) and nothing is reading it")
      )
      #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["report.html"])
    }
  }

  @Test func `an existing 0600 report stays 0600`() throws {
    try withRecordsAndOutput { records, temporary in
      let folder = temporary.path
      let report = folder + "/report.html"
      try Data("old".utf8).write(to: URL(fileURLWithPath: report))
      #expect(chmod(report, 0o600) == 0)
      #expect(try runContextKit(["analyze", records.path, "--html", report]).status == 0)
      var info = stat()
      #expect(stat(report, &info) == 0 && info.st_mode & 0o7777 == 0o600)
      #expect(try String(contentsOfFile: report, encoding: .utf8).contains("<svg"))
    }
  }

  @Test func `an empty folder or a FIFO given as the records is named for what it is`() throws {
    let temporary = try TemporaryFolder(named: "ck-out")
    defer { temporary.remove() }
    let folder = temporary.path
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

  @Test func `--html /dev/stdout with standard output appended to a log appends to the log`() throws {
    #if os(Linux)
    try withRecordsAndOutput { records, temporary in
      let folder = temporary.path
      let log = folder + "/session.log"
      try Data("earlier lines\n".utf8).write(to: URL(fileURLWithPath: log))
      // As `contextkit analyze … --html /dev/stdout >> session.log` runs it.
      let descriptor = open(log, O_WRONLY | O_APPEND | O_CLOEXEC)
      #expect(descriptor >= 0)
      let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
      let executable = try #require(contextKitExecutable)
      let process = Process()
      process.executableURL = executable
      process.arguments = ["analyze", records.path, "--html", "/dev/stdout"]
      process.standardOutput = handle
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      let text = try String(contentsOfFile: log, encoding: .utf8)
      #expect(text.hasPrefix("earlier lines\n"), "the log was replaced: \(text.prefix(80))")
      #expect(text.contains("<svg") && text.hasSuffix("</html>\n") || text.hasSuffix("</html>"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["session.log"])
    }
    #endif
  }

  @Test func `a report the user cannot write is refused, not replaced, as the shell would`() throws {
    #if os(Linux)
    guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
    try withRecordsAndOutput { records, temporary in
      #expect(chmod(records.path, 0o644) == 0)
      let folder = temporary.path
      // A folder anyone may write, holding a report its owner made read-only.
      #expect(chmod(folder, 0o777) == 0)
      let report = folder + "/report.html"
      try Data("kept".utf8).write(to: URL(fileURLWithPath: report))
      #expect(chown(report, 65_534, 65_534) == 0 && chmod(report, 0o444) == 0)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments =
        ["--reuid=65534", "--regid=65534", "--clear-groups", try #require(contextKitExecutable).path]
        + ["analyze", records.path, "--html", report]
      let error = Pipe()
      process.standardOutput = FileHandle.nullDevice
      process.standardError = error
      try process.run()
      let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 1, "\(message)")
      #expect(message.contains("cannot write \(report)"), "\(message)")
      #expect(message.contains("read-only"), "\(message)")
      #expect(try String(contentsOfFile: report, encoding: .utf8) == "kept")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["report.html"])
    }
    #endif
  }

  @Test func `a report file that is read-only for the user is refused and left as it was`() throws {
    // Root may write any file, so as root the command runs as the user nobody (65534),
    // who owns the report, made read-only, in a folder anyone may write to: replacing
    // the file through the folder would work, and must not be done.
    try withRecordsAndOutput { records, temporary in
      let folder = temporary.path
      #expect(chmod(folder, 0o777) == 0)
      let report = folder + "/report.html"
      try Data("old".utf8).write(to: URL(fileURLWithPath: report))
      #expect(chmod(report, 0o444) == 0)
      if geteuid() == 0 {
        let setpriv = "/usr/bin/setpriv"
        try #require(
          FileManager.default.isExecutableFile(atPath: setpriv), "util-linux's setpriv is needed as root")
        #expect(chown(report, 65_534, 65_534) == 0)
        // Copies nobody can read and run, wherever the package and the temporary folder are.
        let toolsFolder = try TemporaryFolder(named: "ck-out")
        defer { toolsFolder.remove() }
        let tools = toolsFolder.path
        #expect(chmod(tools, 0o755) == 0)
        try FileManager.default.copyItem(
          at: try #require(contextKitExecutable), to: URL(fileURLWithPath: tools + "/contextkit"))
        try FileManager.default.copyItem(at: records, to: URL(fileURLWithPath: tools + "/records.jsonl"))
        #expect(chmod(tools + "/records.jsonl", 0o644) == 0)
        let arguments = [
          "--reuid=65534", "--regid=65534", "--clear-groups", tools + "/contextkit", "analyze",
          tools + "/records.jsonl", "--html", report,
        ]
        let (_, error, status) = try runProcess(URL(fileURLWithPath: setpriv), arguments)
        try checkRefused(report, in: folder, error: error, status: status)
      } else {
        let (_, error, status) = try runContextKit(["analyze", records.path, "--html", report])
        try checkRefused(report, in: folder, error: error, status: status)
      }
    }
  }

  /// Runs `body` with the small records file (`smallRecordsFile(in:)`) and an empty output
  /// folder, both removed afterwards.
  private func withRecordsAndOutput(_ body: (_ records: URL, _ output: TemporaryFolder) throws -> Void) throws
  {
    try withTemporaryFolder(named: "ck-records") { recordsFolder in
      let records = try smallRecordsFile(in: recordsFolder)
      try withTemporaryFolder(named: "ck-out") { output in try body(records, output) }
    }
  }

  private func checkRefused(_ report: String, in folder: String, error: Data, status: Int32) throws {
    #expect(status == 1)
    let message = String(decoding: error, as: UTF8.self)
    #expect(message.contains("it is read-only for this user; it was left as it was"), "\(message)")
    #expect(try String(contentsOfFile: report, encoding: .utf8) == "old")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["report.html"])
  }
}
