import ModelSession

/// A small command-line parser: flags (`--json`), options with a value
/// (`--block-size 16` or `--block-size=16`), and positional arguments, read
/// in any order. Unknown flags are errors that name the flag.
struct CommandLineArguments {
  /// A problem with the command line, reported as `contextkit: <message>`.
  struct UsageError: Error, CustomStringConvertible, Equatable {
    var description: String
  }

  private var remaining: [String]
  /// The arguments after the first `--`: positional, even when they start with `--`.
  private var afterDoubleDash: [String] = []

  init(_ arguments: some Sequence<String>) {
    remaining = Array(arguments)
    if let index = remaining.firstIndex(of: "--") {
      afterDoubleDash = Array(remaining[(index + 1)...])
      remaining.removeSubrange(index...)
    }
  }

  /// Removes and returns whether `name` (or one of `aliases`) is present.
  mutating func flag(_ name: String, aliases: [String] = []) -> Bool {
    let names = [name] + aliases
    guard let index = remaining.firstIndex(where: names.contains) else { return false }
    remaining.remove(at: index)
    return true
  }

  /// Removes and returns the value of option `name`, if given.
  mutating func option(_ name: String) throws(UsageError) -> String? {
    if let index = remaining.firstIndex(where: { $0.hasPrefix(name + "=") }) {
      let value = String(remaining[index].dropFirst(name.count + 1))
      remaining.remove(at: index)
      return value
    }
    guard let index = remaining.firstIndex(of: name) else { return nil }
    guard index + 1 < remaining.count, !remaining[index + 1].hasPrefix("--") else {
      throw UsageError(description: "\(name) needs a value")
    }
    let value = remaining[index + 1]
    remaining.removeSubrange(index...(index + 1))
    return value
  }

  /// Removes and returns the value of option `name` as an integer, if given.
  ///
  /// Every number contextkit takes is within ±2^53 (`CountRange.maximum`):
  /// a larger one (`9223372036854775807`, or past `Int`) is a usage error
  /// here, so that no option reaches arithmetic that could overflow. Each
  /// option checks its own lower bound.
  mutating func integerOption(_ name: String) throws(UsageError) -> Int? {
    guard let text = try option(name) else { return nil }
    let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
    guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
      throw UsageError(description: "\(name) takes a whole number, not \"\(text)\"")
    }
    guard let value = Int(text), value.magnitude <= CountRange.maximum else {
      throw UsageError(
        description:
          "\(name) takes a whole number from -\(CountRange.maximum) to \(CountRange.maximum) (2^53), "
          + "not \(text)")
    }
    return value
  }

  /// Removes and returns the first positional argument, if any.
  mutating func nextPositional() -> String? {
    if let index = remaining.firstIndex(where: { !$0.hasPrefix("--") }) {
      return remaining.remove(at: index)
    }
    return afterDoubleDash.isEmpty ? nil : afterDoubleDash.removeFirst()
  }

  /// Removes and returns every positional argument left.
  mutating func remainingPositionals() -> [String] {
    var values: [String] = []
    while let value = nextPositional() { values.append(value) }
    return values
  }

  /// Fails when anything was not consumed, naming the first leftover.
  func finish() throws(UsageError) {
    if let leftover = remaining.first {
      throw UsageError(
        description: leftover.hasPrefix("--")
          ? "unknown option \(leftover)" : "unexpected argument \"\(leftover)\"")
    }
    if let leftover = afterDoubleDash.first {
      throw UsageError(description: "unexpected argument \"\(leftover)\"")
    }
  }
}
