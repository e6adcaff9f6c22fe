import Foundation

/// The JSON that `--json` prints: pretty-printed, keys sorted, slashes as
/// they are, so the same result always gives the same bytes.
enum JSONOutput {
  static func string(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// The shape of a failure under `--json`: `{"error": "message"}`.
  struct Failure: Encodable {
    var error: String
  }
}
