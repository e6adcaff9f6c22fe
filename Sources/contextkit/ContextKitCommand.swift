import ContextKit
import Foundation

/// The `contextkit` command: dispatches to subcommands, answers `--help` and
/// `--version`, and turns what happened into the exit status (0 success,
/// 1 invalid input, 2 wrong usage; the usage is printed only for 2).
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
    lines.append("Every command takes --help, and --json for output in a stable JSON shape.")
    lines.append("Exit status: 0 success, 1 invalid input, 2 wrong usage.")
    return lines.joined(separator: "\n")
  }

  /// Runs with the process arguments (without the program name); returns the exit status.
  func run(_ arguments: [String], console: Console) async -> ExitCode {
    guard let first = arguments.first else {
      console.printDiagnostic(help)
      return .usage
    }
    if first == "--help" || first == "-h" || first == "help" {
      console.print(help)
      return .success
    }
    if first == "--version" {
      console.print("contextkit \(Self.version)")
      return .success
    }
    guard let command = commands.first(where: { $0.name == first }) else {
      console.printError("unknown command \"\(first)\"")
      console.printDiagnostic("\n\(help)")
      return .usage
    }
    var parser = CommandLineArguments(arguments.dropFirst())
    if parser.flag("--help", aliases: ["-h"]) {
      console.print(command.usage)
      return .success
    }
    let json = arguments.contains("--json")
    do {
      return try await command.run(&parser, console: console)
    } catch let error as CommandLineArguments.UsageError {
      console.printError("\(error)")
      console.printDiagnostic("\n\(command.usage)")
      return .usage
    } catch {
      console.printError("\(error)")
      if json, let failure = try? JSONOutput.string(JSONOutput.Failure(error: "\(error)")) {
        console.print(failure)
      }
      return .invalidInput
    }
  }
}
