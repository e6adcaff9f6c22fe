import Foundation
import Synchronization

/// Where a command writes: standard output for results, standard error for
/// diagnostics and messages. Tests use a capturing console and read both.
///
/// Everything written is escaped for a terminal (see ``TerminalText``): text
/// from skill files and records never reaches the terminal as control characters.
final class Console: Sendable {
  private struct Captured {
    var output = ""
    var error = ""
  }

  private let isCapturing: Bool
  private let captured = Mutex(Captured())

  private init(capturing: Bool) {
    isCapturing = capturing
  }

  /// The process's standard output and standard error.
  static let standard = Console(capturing: false)

  /// A console that keeps what is written, for tests.
  static func capturing() -> Console {
    Console(capturing: true)
  }

  /// Writes one line to standard output.
  func print(_ line: String) {
    write(TerminalText.escaped(line) + "\n", toError: false)
  }

  /// Writes one line to standard error, as `contextkit: message`.
  func printError(_ message: String) {
    write("contextkit: \(TerminalText.escaped(message))\n", toError: true)
  }

  /// Writes one line to standard error as it is (diagnostics in compiler form).
  func printDiagnostic(_ line: String) {
    write(TerminalText.escaped(line) + "\n", toError: true)
  }

  /// What was written to standard output (capturing consoles only).
  var output: String { captured.withLock { $0.output } }

  /// What was written to standard error (capturing consoles only).
  var error: String { captured.withLock { $0.error } }

  private func write(_ text: String, toError: Bool) {
    if isCapturing {
      captured.withLock { toError ? $0.error.append(text) : $0.output.append(text) }
      return
    }
    (toError ? FileHandle.standardError : FileHandle.standardOutput).write(Data(text.utf8))
  }
}
