/// Carries a `GeneratedContent` JSON value through `Encoder` and `Decoder`,
/// for the schema's `Codable` conformance.
///
/// Objects are encoded with their keys in order; decoded objects get their
/// keys sorted by name, since a decoder does not say in which order they came.
struct SchemaJSONValue: Codable {
  let content: GeneratedContent

  init(_ content: GeneratedContent) {
    self.content = content
  }

  private struct Key: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
      self.stringValue = stringValue
    }

    init?(intValue: Int) {
      nil
    }
  }

  func encode(to encoder: any Encoder) throws {
    switch content.storage {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .number(let value):
      var container = encoder.singleValueContainer()
      if value.rounded() == value, abs(value) < 9e15 {
        try container.encode(Int64(value))
      } else {
        try container.encode(value)
      }
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements {
        try container.encode(SchemaJSONValue(element))
      }
    case .structure(let keys, let values):
      var container = encoder.container(keyedBy: Key.self)
      for (key, value) in zip(keys, values) {
        try container.encode(SchemaJSONValue(value), forKey: Key(stringValue: key))
      }
    }
  }

  /// A decoder says what a value is only by failing to read it as something
  /// else, and each failure builds an error: the kinds are tried in the order
  /// schemas use them most (objects, then strings, then arrays), so that most
  /// values cost one failed try or none.
  init(from decoder: any Decoder) throws {
    if let container = try? decoder.container(keyedBy: Key.self) {
      let keys = container.allKeys.sorted { $0.stringValue < $1.stringValue }
      var pairs: [(String, GeneratedContent)] = []
      for key in keys {
        pairs.append((key.stringValue, try container.decode(SchemaJSONValue.self, forKey: key).content))
      }
      content = GeneratedContent(orderedProperties: pairs)
      return
    }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      content = GeneratedContent(storage: .null)
    } else if let value = try? single.decode(String.self) {
      content = GeneratedContent(storage: .string(value))
    } else if var container = try? decoder.unkeyedContainer() {
      var elements: [GeneratedContent] = []
      while !container.isAtEnd {
        elements.append(try container.decode(SchemaJSONValue.self).content)
      }
      content = GeneratedContent(storage: .array(elements))
    } else if let value = try? single.decode(Bool.self) {
      content = GeneratedContent(storage: .bool(value))
    } else {
      content = GeneratedContent(storage: .number(try single.decode(Double.self)))
    }
  }
}
