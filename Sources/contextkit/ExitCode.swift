/// The exit status of `contextkit`, as Unix tools use them.
enum ExitCode: Int32, Sendable {
  /// The command did what was asked.
  case success = 0
  /// The input is invalid: a skill fails validation, a file cannot be read,
  /// nothing could be loaded.
  case invalidInput = 1
  /// The command line is wrong; only then is the usage printed.
  case usage = 2
}
