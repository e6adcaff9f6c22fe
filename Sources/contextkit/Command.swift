/// A subcommand of `contextkit`.
protocol Command: Sendable {
  /// The word that selects the command (`skills`, `analyze`, …).
  var name: String { get }
  /// One line for the overview.
  var summary: String { get }
  /// The command's own help text.
  var usage: String { get }
  /// Runs the command. Throws ``CommandLineArguments/UsageError`` for a wrong
  /// command line (exit 2) and any other error for invalid input (exit 1).
  func run(_ arguments: inout CommandLineArguments, console: Console) async throws -> ExitCode
}
