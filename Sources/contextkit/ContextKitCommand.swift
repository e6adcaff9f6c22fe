import ContextKit
import Foundation

/// The `contextkit` command: dispatches to subcommands, answers `--help` and `--version`.
struct ContextKitCommand {
  static let version = ContextKitVersion.current

  let commands: [any Command]

  var help: String {
    var lines = [
      "contextkit \(Self.version): control what goes into a language model's context.",
      "",
      "usage: contextkit <command> [options]",
      "       contextkit --help | --version",
      "",
      "commands:",
    ]
    let width = commands.map(\.name.count).max() ?? 0
    for command in commands {
      lines.append(
        "  \(command.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(command.summary)")
    }
    lines.append("")
    lines.append("Run 'contextkit <command> --help' for a command's options.")
    return lines.joined(separator: "\n")
  }

  /// Runs with the process arguments (without the program name); returns the exit status.
  func run(_ arguments: [String]) async -> Int32 {
    var parser = CommandLineArguments(arguments)
    guard let first = arguments.first else {
      print(help)
      return 0
    }
    if first == "--help" || first == "-h" || first == "help" {
      print(help)
      return 0
    }
    if first == "--version" {
      print("contextkit \(Self.version)")
      return 0
    }
    guard let command = commands.first(where: { $0.name == first }) else {
      printError("unknown command \"\(first)\"; run 'contextkit --help' for the list")
      return 2
    }
    _ = parser.nextPositional()
    if parser.flag("--help", aliases: ["-h"]) {
      print(command.usage)
      return 0
    }
    do {
      return try await command.run(&parser)
    } catch let error as CommandLineArguments.UsageError {
      printError("\(error)\n\n\(command.usage)")
      return 2
    } catch {
      printError("\(error)")
      return 1
    }
  }
}

/// Writes `contextkit: message` to standard error, control characters escaped (see ``TerminalText``).
func printError(_ message: String) {
  var standardError = StandardError()
  print("contextkit: \(TerminalText.escaped(message))", to: &standardError)
}

/// Standard error as a text output stream.
struct StandardError: TextOutputStream {
  mutating func write(_ string: String) {
    FileHandle.standardError.write(Data(string.utf8))
  }
}
