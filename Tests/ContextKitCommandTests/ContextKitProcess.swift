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
