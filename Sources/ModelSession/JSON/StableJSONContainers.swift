/// The keyed container of `StableJSONValueEncoder`: members in the order written.
struct StableJSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: StableJSONNode
  let codingPath: [any CodingKey]
  let misuse: StableJSONMisuse

  private func encoder(for key: any CodingKey) -> StableJSONValueEncoder {
    StableJSONValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key], misuse: misuse)
  }

  mutating func encodeNil(forKey key: Key) throws {
    node.member(key.stringValue).set(.null)
  }

  mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
    try put(value, forKey: key)
  }

  private func put<Value: Encodable>(_ value: Value, forKey key: Key) throws {
    try StableJSONValueEncoder.encode(
      value, into: node.member(key.stringValue), codingPath: codingPath + [key], misuse: misuse)
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, forKey: key) }
  mutating func encode(_ value: String, forKey key: Key) throws { try put(value, forKey: key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, forKey: key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { try put(value, forKey: key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { try put(value, forKey: key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { try put(value, forKey: key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try put(value, forKey: key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { try put(value, forKey: key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { try put(value, forKey: key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try put(value, forKey: key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(value, forKey: key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(value, forKey: key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(value, forKey: key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(value, forKey: key) }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    encoder(for: key).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    encoder(for: key).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    encoder(for: StableJSONSuperKey())
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    encoder(for: key)
  }
}

/// The unkeyed container of `StableJSONValueEncoder`: elements in the order written.
struct StableJSONUnkeyedContainer: UnkeyedEncodingContainer {
  let node: StableJSONNode
  let codingPath: [any CodingKey]
  let misuse: StableJSONMisuse
  var count: Int { node.children.count }

  private var nextPath: [any CodingKey] { codingPath + [StableJSONIndexKey(intValue: count)] }

  mutating func encodeNil() throws {
    node.appendElement().set(.null)
  }

  mutating func encode<Value: Encodable>(_ value: Value) throws {
    try put(value)
  }

  private func put<Value: Encodable>(_ value: Value) throws {
    let path = nextPath
    try StableJSONValueEncoder.encode(value, into: node.appendElement(), codingPath: path, misuse: misuse)
  }

  mutating func encode(_ value: Bool) throws { try put(value) }
  mutating func encode(_ value: String) throws { try put(value) }
  mutating func encode(_ value: Double) throws { try put(value) }
  mutating func encode(_ value: Float) throws { try put(value) }
  mutating func encode(_ value: Int) throws { try put(value) }
  mutating func encode(_ value: Int8) throws { try put(value) }
  mutating func encode(_ value: Int16) throws { try put(value) }
  mutating func encode(_ value: Int32) throws { try put(value) }
  mutating func encode(_ value: Int64) throws { try put(value) }
  mutating func encode(_ value: UInt) throws { try put(value) }
  mutating func encode(_ value: UInt8) throws { try put(value) }
  mutating func encode(_ value: UInt16) throws { try put(value) }
  mutating func encode(_ value: UInt32) throws { try put(value) }
  mutating func encode(_ value: UInt64) throws { try put(value) }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  )
    -> KeyedEncodingContainer<NestedKey>
  {
    let path = nextPath
    return StableJSONValueEncoder(node: node.appendElement(), codingPath: path, misuse: misuse)
      .container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = nextPath
    return StableJSONValueEncoder(node: node.appendElement(), codingPath: path, misuse: misuse)
      .unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let path = nextPath
    return StableJSONValueEncoder(node: node.appendElement(), codingPath: path, misuse: misuse)
  }
}

/// The single-value container of `StableJSONValueEncoder`.
struct StableJSONSingleValueContainer: SingleValueEncodingContainer {
  let node: StableJSONNode
  let codingPath: [any CodingKey]
  let misuse: StableJSONMisuse

  mutating func encodeNil() throws {
    guard node.isPending else {
      misuse.record("a second value was encoded where one was already written", at: codingPath)
      return
    }
    node.set(.null)
  }

  mutating func encode<Value: Encodable>(_ value: Value) throws {
    try put(value)
  }

  private func put<Value: Encodable>(_ value: Value) throws {
    try StableJSONValueEncoder.encode(value, into: node, codingPath: codingPath, misuse: misuse)
  }

  mutating func encode(_ value: Bool) throws { try put(value) }
  mutating func encode(_ value: String) throws { try put(value) }
  mutating func encode(_ value: Double) throws { try put(value) }
  mutating func encode(_ value: Float) throws { try put(value) }
  mutating func encode(_ value: Int) throws { try put(value) }
  mutating func encode(_ value: Int8) throws { try put(value) }
  mutating func encode(_ value: Int16) throws { try put(value) }
  mutating func encode(_ value: Int32) throws { try put(value) }
  mutating func encode(_ value: Int64) throws { try put(value) }
  mutating func encode(_ value: UInt) throws { try put(value) }
  mutating func encode(_ value: UInt8) throws { try put(value) }
  mutating func encode(_ value: UInt16) throws { try put(value) }
  mutating func encode(_ value: UInt32) throws { try put(value) }
  mutating func encode(_ value: UInt64) throws { try put(value) }
}

/// The key `super` of `superEncoder()`, as `JSONEncoder` names it.
struct StableJSONSuperKey: CodingKey {
  var stringValue: String { "super" }
  var intValue: Int? { nil }

  init() {}

  init?(stringValue: String) {
    guard stringValue == "super" else { return nil }
  }

  init?(intValue: Int) {
    nil
  }
}
