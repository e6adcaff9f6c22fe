/// HTTP header fields with case-insensitive names, in a stable order.
///
/// Setting a field replaces any field whose name differs only in case, so
/// that `["content-type": "text/plain"]` merged over the defaults replaces
/// `Content-Type` instead of sending both.
///
/// ```swift
/// var headers = HTTPHeaderFields(["Accept": "text/event-stream"])
/// headers["accept"] = "application/json"
/// headers["ACCEPT"]  // "application/json"
/// ```
package struct HTTPHeaderFields: Sendable, Hashable, Sequence, CustomStringConvertible,
  CustomDebugStringConvertible, CustomReflectable
{
  /// The fields in the order they were first set, each with the name as last spelled.
  package private(set) var fields: [(name: String, value: String)] = []

  /// Creates header fields from name-value pairs; later names win over earlier ones.
  package init(_ fields: [String: String] = [:]) {
    for (name, value) in fields.sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
      self[name] = value
    }
  }

  /// Creates header fields from ordered name-value pairs; later names win over earlier ones.
  package init(orderedFields: [(String, String)]) {
    for (name, value) in orderedFields {
      self[name] = value
    }
  }

  /// The value of the field with this name in any case, or `nil`; setting `nil` removes it.
  package subscript(name: String) -> String? {
    get {
      let key = name.lowercased()
      return fields.first { $0.name.lowercased() == key }?.value
    }
    set {
      let key = name.lowercased()
      let position = fields.firstIndex { $0.name.lowercased() == key }
      switch (position, newValue) {
      case (let position?, let value?): fields[position] = (name, value)
      case (let position?, nil): fields.remove(at: position)
      case (nil, let value?): fields.append((name, value))
      case (nil, nil): break
      }
    }
  }

  /// These fields with `other`'s fields set over them, one field at a time.
  package func merging(_ other: HTTPHeaderFields) -> HTTPHeaderFields {
    var merged = self
    for (name, value) in other.fields {
      merged[name] = value
    }
    return merged
  }

  /// Iterates over the fields in order.
  package func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
    fields.makeIterator()
  }

  /// Fields are equal when they have the same names (in any case) and values, in the same order.
  package static func == (lhs: HTTPHeaderFields, rhs: HTTPHeaderFields) -> Bool {
    lhs.fields.count == rhs.fields.count
      && zip(lhs.fields, rhs.fields).allSatisfy {
        $0.name.lowercased() == $1.name.lowercased() && $0.value == $1.value
      }
  }

  /// The fields as `name: value` lines, with the values of credential
  /// headers (`Authorization`, `Cookie`, and any name containing `key`,
  /// `token`, `secret`, `auth`, `pass`, `session` or `signature`) shown as `<redacted>`.
  package var description: String {
    "[" + redactedFields.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
  }

  /// The same as ``description``: credential values are never shown.
  package var debugDescription: String { description }

  /// A mirror of the fields with credential values redacted.
  package var customMirror: Mirror {
    Mirror(
      self, children: redactedFields.map { (label: $0.name, value: $0.value as Any) },
      displayStyle: .dictionary)
  }

  private var redactedFields: [(name: String, value: String)] {
    fields.map {
      (name: $0.name, value: Redaction.isSecretName($0.name) ? "<redacted>" : $0.value)
    }
  }

  /// Hashes the fields' lowercased names and values in order.
  package func hash(into hasher: inout Hasher) {
    for field in fields {
      hasher.combine(field.name.lowercased())
      hasher.combine(field.value)
    }
  }
}
