/// A subcommand of `contextkit`.
protocol Command: Sendable {
  /// The word that selects the command (`skills`, `analyze`, …).
  var name: String { get }
  /// One line for the overview.
  var summary: String { get }
  /// The command's own help text.
  var usage: String { get }
  /// Runs the command; returns the process exit status.
  func run(_ arguments: inout CommandLineArguments) async throws -> Int32
}
