/// A JSON value produced by, or handed to, a language model.
///
/// `GeneratedContent` is the currency of guided generation, tool arguments and
/// entry metadata. Objects keep the order of their keys, so that the same value
/// always serializes to the same bytes (prompt caches depend on that).
///
/// ```swift
/// let content = try GeneratedContent(json: #"{"city": "Paris", "days": 3}"#)
/// let days = try content.value(Int.self, forProperty: "days")  // 3
/// content.jsonString  // {"city":"Paris","days":3}
/// ```
public struct GeneratedContent: Sendable {
  /// The shape of a generated value.
  public enum Kind: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// A boolean.
    case bool(Bool)
    /// A number. JSON does not tell integers from decimals; both are `Double`.
    case number(Double)
    /// A string.
    case string(String)
    /// An ordered list of values.
    case array([GeneratedContent])
    /// An object: its properties, and the order in which their keys appear.
    case structure(properties: [String: GeneratedContent], orderedKeys: [String])
  }

  /// The storage keeps objects as parallel arrays: parsing never builds a
  /// dictionary, and key order is the array order.
  enum Storage: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([GeneratedContent])
    case structure(keys: [String], values: [GeneratedContent])
  }

  /// Scalars are stored inline; arrays and objects in a `ContainerNode`,
  /// whose teardown is iterative (see `GeneratedContent+Teardown.swift`).
  var representation: Representation

  /// The value's storage.
  var storage: Storage {
    get {
      switch representation {
      case .scalar(let storage): storage
      case .container(let node): node.storage
      }
    }
    set { representation = Representation(newValue) }
  }

  /// Whether the value is whole. Values parsed from a truncated JSON prefix
  /// (while a response streams in) are incomplete.
  public internal(set) var isComplete: Bool

  init(storage: Storage, isComplete: Bool = true) {
    self.representation = Representation(storage)
    self.isComplete = isComplete
  }

  /// Creates content of the given kind.
  ///
  /// For `.structure`, the keys come in `orderedKeys` order (a repeated key
  /// once, at its first place; a key without a property left out), then the
  /// properties that `orderedKeys` does not name, sorted by key.
  public init(kind: Kind) {
    let storage: Storage
    switch kind {
    case .null: storage = .null
    case .bool(let value): storage = .bool(value)
    case .number(let value): storage = .number(value)
    case .string(let value): storage = .string(value)
    case .array(let elements): storage = .array(elements)
    case .structure(let properties, let orderedKeys):
      var keys: [String] = []
      var values: [GeneratedContent] = []
      keys.reserveCapacity(properties.count)
      values.reserveCapacity(properties.count)
      // A set of the keys taken, so that objects of many keys cost linear time.
      var taken: Set<String> = []
      taken.reserveCapacity(properties.count)
      for key in orderedKeys {
        if let value = properties[key], taken.insert(key).inserted {
          keys.append(key)
          values.append(value)
        }
      }
      // Keys missing from `orderedKeys` follow in sorted order, so the result is deterministic.
      for key in properties.keys.sorted() where !taken.contains(key) {
        if let value = properties[key] {
          keys.append(key)
          values.append(value)
        }
      }
      storage = .structure(keys: keys, values: values)
    }
    self.init(storage: storage)
  }

  /// Creates an object whose keys keep the order written.
  ///
  /// ```swift
  /// GeneratedContent(properties: ["title": "Dune", "year": 1965])
  /// ```
  public init(properties: KeyValuePairs<String, any ConvertibleToGeneratedContent>) {
    self.init(orderedProperties: properties.map { ($0.key, $0.value.generatedContent) })
  }

  /// Creates an object from key-value pairs in order. A repeated key keeps its
  /// first position and its last value.
  public init(orderedProperties: [(String, GeneratedContent)]) {
    var keys: [String] = []
    var values: [GeneratedContent] = []
    keys.reserveCapacity(orderedProperties.count)
    values.reserveCapacity(orderedProperties.count)
    // Positions by key, so that objects of many keys (a schema's `$defs`) cost linear time.
    var positions: [String: Int] = [:]
    positions.reserveCapacity(orderedProperties.count)
    for (key, value) in orderedProperties {
      if let existing = positions[key] {
        values[existing] = value
      } else {
        positions[key] = keys.count
        keys.append(key)
        values.append(value)
      }
    }
    self.init(storage: .structure(keys: keys, values: values))
  }

  /// Creates an array from a sequence of convertible values.
  public init<S: Sequence>(elements: S) where S.Element == any ConvertibleToGeneratedContent {
    self.init(storage: .array(elements.map(\.generatedContent)))
  }

  /// Creates content from any convertible value.
  public init(_ value: some ConvertibleToGeneratedContent) {
    self = value.generatedContent
  }

  /// The value's shape.
  public var kind: Kind {
    switch storage {
    case .null: .null
    case .bool(let value): .bool(value)
    case .number(let value): .number(value)
    case .string(let value): .string(value)
    case .array(let elements): .array(elements)
    case .structure(let keys, let values):
      .structure(
        properties: Dictionary(zip(keys, values), uniquingKeysWith: { _, last in last }),
        orderedKeys: keys)
    }
  }

  /// The property named `key` when this is an object that has it.
  public subscript(property key: String) -> GeneratedContent? {
    guard case .structure(let keys, let values) = storage, let index = keys.firstIndex(of: key)
    else { return nil }
    return values[index]
  }

  /// The object's keys in order, or an empty array when this is not an object.
  public var orderedKeys: [String] {
    if case .structure(let keys, _) = storage { keys } else { [] }
  }

  /// A short name of the value's JSON type, for error messages.
  var typeName: String {
    switch storage {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .structure: "object"
    }
  }
}

extension GeneratedContent: Equatable, Hashable {
  /// Two values are equal when they have the same shape, the same values and,
  /// for objects, the same keys in the same order. Completeness is not compared.
  public static func == (lhs: GeneratedContent, rhs: GeneratedContent) -> Bool {
    storagesAreEqual(lhs, rhs)
  }

  /// Hashes the value (not its completeness).
  public func hash(into hasher: inout Hasher) {
    hashStorage(into: &hasher)
  }
}

extension GeneratedContent: CustomStringConvertible, CustomDebugStringConvertible {
  /// The compact JSON text of the value.
  public var description: String { jsonString }

  /// The compact JSON text of the value, marked when incomplete.
  public var debugDescription: String {
    isComplete ? "GeneratedContent(\(jsonString))" : "GeneratedContent(partial: \(jsonString))"
  }
}
