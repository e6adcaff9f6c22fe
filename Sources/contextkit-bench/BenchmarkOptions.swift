/// The command-line options of `contextkit-bench`.
struct BenchmarkOptions {
  /// Measured runs per case (and per baseline).
  var runs = 10
  /// Unmeasured runs before measuring.
  var warmUpRuns = 2
  /// The shortest time one run should take; short operations repeat within a run.
  var minimumRunSeconds = 0.02
  /// Only cases whose name contains this text run.
  var filter: String?
  /// Whether to print JSON instead of a table.
  var printsJSON = false
  /// Whether to print the usage and exit.
  var printsHelp = false
  /// Whether to skip baselines (to profile the case alone).
  var skipsBaselines = false
  /// Whether to print the history strategies' comparison instead of timing cases.
  var comparesStrategies = false
  /// The corpus seed for the strategies' comparison.
  var seed: UInt64 = 2026
  /// Where to write the strategies' HTML page, if anywhere.
  var htmlPath: String?

  static let usage = """
    USAGE: contextkit-bench [--runs N] [--warm-up N] [--min-run-time SECONDS] [--filter TEXT] [--json] [--no-baseline] [--list]
           contextkit-bench --strategies [--seed N] [--filter TEXT] [--json] [--html PATH]

    Measures each benchmark case (and its baseline, when it has one) and prints
    the median time per operation, the spread (min, max, interquartile range)
    and the ratio to the baseline.

    OPTIONS:
      --runs N               measured runs per case (default 10)
      --warm-up N            unmeasured runs first (default 2)
      --min-run-time SECONDS repeat short operations so one run lasts at least this long (default 0.02)
      --filter TEXT          run only the cases (with --strategies: the strategies) whose name contains TEXT;
                             a case's exact name runs that case alone
      --json                 print one JSON object per case, as a JSON array
      --no-baseline          measure the cases only, not their baselines (for profiling)
      --list                 print the case names and exit
      --strategies           compare the history strategies on the seeded corpus (prompt-cache reuse at
                             block sizes 16 and 128, re-processed tokens and their ratio to the floor of
                             new tokens, visible share of the budget, peak context, turns over budget,
                             summarizer calls) instead of timing; with --json, as JSON
      --seed N               the corpus seed for --strategies (default 2026)
      --html PATH            with --strategies, also write a page with the table and the charts of
                             the corpus's longest conversation under each strategy
      --help                 print this text
    """

  /// Whether to list the cases and exit.
  var listsCases = false

  /// Reads options from the arguments (without the program name).
  init(arguments: [String]) throws(BenchmarkOptionsError) {
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--runs": runs = try Self.positiveInteger(argument, remaining.popFirst())
      case "--warm-up":
        warmUpRuns = try Self.positiveInteger(argument, remaining.popFirst(), allowsZero: true)
      case "--min-run-time":
        guard let text = remaining.popFirst(), let seconds = Double(text), seconds >= 0 else {
          throw BenchmarkOptionsError("--min-run-time needs a number of seconds")
        }
        minimumRunSeconds = seconds
      case "--filter":
        guard let text = remaining.popFirst() else { throw BenchmarkOptionsError("--filter needs a text") }
        filter = text
      case "--json": printsJSON = true
      case "--no-baseline": skipsBaselines = true
      case "--list": listsCases = true
      case "--strategies": comparesStrategies = true
      case "--html":
        guard let text = remaining.popFirst() else { throw BenchmarkOptionsError("--html needs a path") }
        htmlPath = text
      case "--seed":
        guard let text = remaining.popFirst(), let value = UInt64(text) else {
          throw BenchmarkOptionsError("--seed needs a non-negative integer")
        }
        seed = value
      case "--help", "-h": printsHelp = true
      default: throw BenchmarkOptionsError("unknown argument '\(argument)'")
      }
    }
  }

  private static func positiveInteger(
    _ option: String, _ text: String?, allowsZero: Bool = false
  ) throws(BenchmarkOptionsError) -> Int {
    guard let text, let value = Int(text), value > 0 || (allowsZero && value == 0) else {
      throw BenchmarkOptionsError("\(option) needs a \(allowsZero ? "non-negative" : "positive") integer")
    }
    return value
  }
}

/// A command-line mistake, with a message for the user.
struct BenchmarkOptionsError: Error, CustomStringConvertible {
  /// What is wrong.
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
