import Foundation

/// Replaces secrets in text that is about to leave the module (error
/// messages, descriptions) with `<redacted>`.
struct Redaction: Sendable, Hashable {
  /// The secrets to hide; empty ones and very short ones (which would match
  /// ordinary text) are ignored.
  var secrets: [String]

  init(secrets: [String]) {
    self.secrets = secrets.filter { $0.count >= 4 }
  }

  func apply(to text: String) -> String {
    secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "<redacted>") }
  }
}
