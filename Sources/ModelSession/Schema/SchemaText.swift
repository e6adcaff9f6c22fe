import Foundation

/// Small text helpers shared by the schema's error messages and its JSON
/// Schema reading and writing.
enum SchemaText {
  /// `name` in double quotes, or `root` when there is no name.
  static func quoted(_ name: String?) -> String {
    name.map { "\"\($0)\"" } ?? "root"
  }

  /// A number as JSON writes it: whole numbers without a fraction.
  static func number(_ value: Double) -> String {
    if value.isFinite, value.rounded() == value, abs(value) < 1e15 {
      return String(Int64(value))
    }
    return String(value)
  }

  /// A name escaped for use as one segment of a JSON Pointer (RFC 6901).
  static func pointerSegment(_ name: String) -> String {
    name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
  }

  /// A JSON Pointer segment turned back into a name.
  static func name(fromPointerSegment segment: Substring) -> String {
    String(segment).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
  }

  /// A short rendering of a content value for error messages: strings in
  /// quotes, numbers as JSON writes them, and the type name otherwise.
  static func value(_ content: GeneratedContent) -> String {
    switch content.storage {
    case .null: "null"
    case .bool(let value): value ? "true" : "false"
    case .number(let value): number(value)
    case .string(let value): "\"\(value)\""
    case .array(let elements): "an array of \(elements.count)"
    case .structure: "an object"
    }
  }
}
