/// A node of a parsed YAML document, with its position in the YAML text.
struct YAMLNode: Equatable {
  /// What a node holds.
  enum Value: Equatable {
    /// A scalar; `isPlain` when it was written without quotes or a tag, so
    /// YAML may read it as a number, a boolean or null.
    case scalar(String, isPlain: Bool)
    case mapping([Pair])
    case sequence([YAMLNode])
    /// A reference to an anchor (`*name`); front matter has no use for them.
    case alias(String)
  }

  /// One key and its value in a mapping.
  struct Pair: Equatable {
    var key: YAMLNode
    var value: YAMLNode
  }

  var value: Value
  /// 1-based line in the YAML text.
  var line: Int
  /// 1-based column in the YAML text.
  var column: Int
  /// Whether a mapping or list is written in flow style (`{a: b}`, `[a, b]`).
  var isFlow = false

  /// A short name for the kind of value, for messages.
  var kindDescription: String {
    switch value {
    case .scalar(let text, let isPlain):
      guard isPlain else { return "a string" }
      return YAMLNode.plainScalarKind(text).map { "a \($0)" } ?? "a string"
    case .mapping: return "a mapping"
    case .sequence: return "a list"
    case .alias: return "an alias"
    }
  }

  /// The text of a scalar that YAML reads as a string, or `nil`.
  var stringValue: String? {
    guard case .scalar(let text, let isPlain) = value else { return nil }
    if isPlain && YAMLNode.plainScalarKind(text) != nil { return nil }
    return text
  }

  /// Whether the node is a mapping.
  var isMappingNode: Bool {
    if case .mapping = value { true } else { false }
  }

  /// The text of any scalar (numbers and booleans included), or `nil`.
  var scalarText: String? {
    guard case .scalar(let text, _) = value else { return nil }
    return text
  }

  /// The kind YAML 1.1 resolves an unquoted scalar to when it is not a string:
  /// `null`, `boolean` or `number`.
  static func plainScalarKind(_ text: String) -> String? {
    // Every null, boolean and number starts with one of these bytes: most
    // strings are told apart by their first byte alone.
    guard let first = text.utf8.first else { return "null" }
    switch first {
    case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"),
      UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "o"),
      UInt8(ascii: "O"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "_"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      break
    default:
      return nil
    }
    switch text {
    case "", "~", "null", "Null", "NULL":
      return "null"
    case "true", "True", "TRUE", "false", "False", "FALSE", "yes", "Yes", "YES", "no", "No", "NO",
      "on", "On", "ON", "off", "Off", "OFF":
      return "boolean"
    case ".inf", ".Inf", ".INF", "-.inf", "-.Inf", "-.INF", "+.inf", ".nan", ".NaN", ".NAN":
      return "number"
    default:
      return looksNumeric(text) ? "number" : nil
    }
  }

  private static func looksNumeric(_ text: String) -> Bool {
    var scalars = Substring(text).unicodeScalars[...]
    if let first = scalars.first, first == "-" || first == "+" { scalars = scalars.dropFirst() }
    if scalars.starts(with: "0x".unicodeScalars) || scalars.starts(with: "0o".unicodeScalars) {
      return scalars.count > 2 && scalars.dropFirst(2).allSatisfy { $0.properties.isASCIIHexDigit }
    }
    var digits = 0
    var dots = 0
    var exponent = false
    var previous: Unicode.Scalar?
    for scalar in scalars {
      switch scalar {
      case "0"..."9": digits += 1
      case "_": break
      case ".":
        dots += 1
        if dots > 1 || exponent { return false }
      case "e", "E":
        if exponent || digits == 0 { return false }
        exponent = true
      case "+", "-":
        if previous != "e" && previous != "E" { return false }
      default: return false
      }
      previous = scalar
    }
    return digits > 0
  }
}
