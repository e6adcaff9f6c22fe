import Foundation

/// How many random cases a property test runs: its default, or the number an
/// environment variable gives for a deeper run.
///
/// The default keeps the whole test command inside its time on a two-core
/// machine; a run that looks for rare failures sets the variable instead,
/// for example `HISTORY_PROPERTY_CASES=50000 swift test --filter "History properties"`.
///
/// ```swift
/// let count = try PropertyCaseCount(default: 2_000, variable: "HISTORY_PROPERTY_CASES").value
/// ```
public struct PropertyCaseCount: Sendable {
  /// The variable holds something other than a whole number from 1 up: a deep
  /// run must not quietly fall back to the default.
  public struct InvalidValue: Error, Equatable, CustomStringConvertible {
    /// The environment variable.
    public let variable: String
    /// What it holds.
    public let text: String

    /// What is wrong, naming the variable and its value.
    public var description: String {
      "\(variable)=\(text) is not a number of cases (a whole number from 1 up)"
    }
  }

  /// The number of cases to run.
  public let value: Int

  /// The count that `variable` names in `environment`, or `defaultCount`
  /// when the variable is unset or empty.
  ///
  /// - Throws: ``InvalidValue`` when the variable holds anything but a whole
  ///   number from 1 up.
  public init(
    default defaultCount: Int, variable: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(InvalidValue) {
    guard let text = environment[variable], !text.isEmpty else {
      value = defaultCount
      return
    }
    guard let count = Int(text), count >= 1 else { throw InvalidValue(variable: variable, text: text) }
    value = count
  }
}
