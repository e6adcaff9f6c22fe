import Foundation

/// The real local model server of `scripts/local-model`, when the environment
/// variable `CONTEXTKIT_TEST_ENDPOINT` names it.
enum LocalModelServer {
  static let variable = "CONTEXTKIT_TEST_ENDPOINT"

  /// The server's base URL, or `nil` when the variable is unset or empty.
  static let endpoint: URL? = {
    guard let text = ProcessInfo.processInfo.environment[variable], !text.isEmpty else { return nil }
    return URL(string: text)
  }()

  /// The model alias that `scripts/local-model` gives the weights.
  static let model = "smollm2"

  static var isAvailable: Bool { endpoint != nil }

  static let skipNote =
    "\(variable) is not set: the tests against the real local model server are skipped. "
    + "Run `scripts/local-model start` and export the URL it prints (scripts/test does this)."
}
