import Foundation
import Testing

/// The built `contextkit` next to the test bundle.
var contextKitExecutable: URL? {
  let folder = Bundle.main.bundleURL.deletingLastPathComponent()
  for candidate in [Bundle.main.bundleURL, folder] {
    let url = candidate.appendingPathComponent("contextkit")
    if FileManager.default.isExecutableFile(atPath: url.path) { return url }
  }
  return nil
}

/// Runs the built `contextkit` with `arguments`; its standard output, standard error and exit status.
func runContextKit(_ arguments: [String]) throws -> (output: Data, error: Data, status: Int32) {
  try runProcess(try #require(contextKitExecutable), arguments)
}

/// Runs `executable` with `arguments`; its standard output, standard error and exit status.
func runProcess(_ executable: URL, _ arguments: [String]) throws -> (output: Data, error: Data, status: Int32)
{
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  let output = Pipe()
  let error = Pipe()
  process.standardOutput = output
  process.standardError = error
  try process.run()
  // Both are small (well under a pipe's buffer), so reading one after the other cannot block.
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  let errorData = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (outputData, errorData, process.terminationStatus)
}

/// How the built `contextkit` ended: its exit status, or the signal that ended it (a trap is `SIGILL`
/// or `SIGTRAP`); and its standard error.
struct ContextKitEnding: Equatable, CustomStringConvertible {
  var status: Int32
  var signaled: Bool
  var error: String

  var description: String { signaled ? "killed by signal \(status): \(error)" : "exit \(status): \(error)" }
}

/// Runs the built `contextkit` in a child process, so that a trap ends the child, not the tests.
func contextKitEnding(_ arguments: [String]) throws -> ContextKitEnding {
  let executable = try #require(contextKitExecutable)
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  let error = Pipe()
  process.standardOutput = FileHandle.nullDevice
  process.standardError = error
  try process.run()
  let errorData = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return ContextKitEnding(
    status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
    error: String(decoding: errorData, as: UTF8.self))
}

/// Runs the built `contextkit` in a child process and measures its peak
/// resident memory, in bytes.
///
/// The measuring parent is a small Python process, not the test process:
/// Linux starts a child by sharing its parent's memory until `exec`, and the
/// child's `ru_maxrss` then counts the parent's resident set too (here, the
/// whole test process).
func peakMemoryOfContextKit(_ arguments: [String]) throws -> (ending: ContextKitEnding, peakBytes: Int) {
  let executable = try #require(contextKitExecutable)
  let script = """
    import resource, subprocess, sys
    child = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    sys.stderr.buffer.write(child.stderr)
    print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, child.returncode)
    """
  let (outputData, errorData, _) = try runProcess(
    URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, executable.path] + arguments)
  let fields = String(decoding: outputData, as: UTF8.self).split(whereSeparator: \.isWhitespace)
  let kilobytes = try #require(fields.first.flatMap { Int($0) }, "no measurement: \(fields)")
  let code = try #require(fields.dropFirst().first.flatMap { Int32($0) }, "no exit status: \(fields)")
  // A negative return code is the signal that ended the child.
  let ending = ContextKitEnding(
    status: code < 0 ? -code : code, signaled: code < 0, error: String(decoding: errorData, as: UTF8.self))
  return (ending, kilobytes * 1024)
}
