import ModelSession

/// Compact JSON text of a `GeneratedContent`, keys in order, for comparing
/// schema documents with exact expected text.
///
/// A stand-in for `GeneratedContent.jsonString`, which is written on another
/// branch; once that lands, tests can use it and this file can go.
enum SchemaTestJSON {
  static func text(_ content: GeneratedContent) -> String {
    switch content.kind {
    case .null: return "null"
    case .bool(let value): return value ? "true" : "false"
    case .number(let value):
      if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
      return String(value)
    case .string(let value): return quoted(value)
    case .array(let elements): return "[" + elements.map(text).joined(separator: ",") + "]"
    case .structure(let properties, let keys):
      let members = keys.map { key in quoted(key) + ":" + (properties[key].map(text) ?? "null") }
      return "{" + members.joined(separator: ",") + "}"
    }
  }

  private static func quoted(_ value: String) -> String {
    var result = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      default:
        if scalar.value < 0x20 {
          result +=
            "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
            + String(scalar.value, radix: 16)
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
