/// One node of a resolved schema: the subset of JSON Schema that
/// `GenerationSchema` writes, reads and validates against.
///
/// `DynamicGenerationSchema` values resolve into nodes (see `SchemaResolver`),
/// and decoded JSON Schema documents read into nodes (see `JSONSchemaReader`),
/// so both paths share one canonical form: two schemas are equal exactly when
/// their nodes are.
struct SchemaNode: Sendable, Hashable {
  /// The schema's name, written as `title`.
  var title: String?
  /// What the value means, written as `description`.
  var description: String?
  /// The value's shape and its constraints.
  var kind: Kind

  indirect enum Kind: Sendable, Hashable {
    /// An object with these properties, in declared order, and no others.
    case object([Property])
    /// An array of `items`, optionally bounded in length.
    case array(items: SchemaNode, minimumCount: Int?, maximumCount: Int?)
    /// A string.
    case string(StringRules)
    /// A whole number.
    case integer(NumberRules)
    /// Any number.
    case number(NumberRules)
    /// A boolean.
    case boolean
    /// A value that matches at least one of the branches.
    case anyOf([SchemaNode])
    /// The schema found elsewhere in the document.
    case reference(Reference)
  }

  /// A property of an object node.
  struct Property: Sendable, Hashable {
    var name: String
    var node: SchemaNode
    var isRequired: Bool
  }

  /// The constraints a string can carry.
  struct StringRules: Sendable, Hashable {
    /// The allowed values (`enum`).
    var choices: [String]?
    /// The only allowed value (`const`).
    var constant: String?
    /// A regular expression the value must contain a match of (`pattern`).
    var pattern: String?
  }

  /// The inclusive bounds a number can carry.
  struct NumberRules: Sendable, Hashable {
    var minimum: Double?
    var maximum: Double?
  }

  /// The target of a `$ref`.
  enum Reference: Sendable, Hashable {
    /// The whole document (`#`), for recursive schemas.
    case root
    /// An entry of `$defs` (`#/$defs/Name`).
    case definition(String)
  }

  init(title: String? = nil, description: String? = nil, kind: Kind) {
    self.title = title
    self.description = description
    self.kind = kind
  }

  /// The JSON Schema name of the node's type, or what stands for it.
  var typeName: String {
    switch kind {
    case .object: "object"
    case .array: "array"
    case .string: "string"
    case .integer: "integer"
    case .number: "number"
    case .boolean: "boolean"
    case .anyOf: "anyOf"
    case .reference(.root): "#"
    case .reference(.definition(let name)): name
    }
  }

  /// The name a schema with this root goes by: its title, else the referenced
  /// definition's name, else its JSON type.
  var schemaName: String { title ?? typeName }

  /// The node with every `$ref` to the document root (`#`) replaced by a
  /// reference to the definition `name`, for embedding this document in another.
  func replacingRootReferences(with name: String) -> SchemaNode {
    var copy = self
    switch kind {
    case .object(let properties):
      copy.kind = .object(
        properties.map {
          Property(
            name: $0.name, node: $0.node.replacingRootReferences(with: name), isRequired: $0.isRequired)
        })
    case .array(let items, let minimumCount, let maximumCount):
      copy.kind = .array(
        items: items.replacingRootReferences(with: name), minimumCount: minimumCount,
        maximumCount: maximumCount)
    case .anyOf(let branches):
      copy.kind = .anyOf(branches.map { $0.replacingRootReferences(with: name) })
    case .reference(.root):
      copy.kind = .reference(.definition(name))
    case .string, .integer, .number, .boolean, .reference(.definition):
      break
    }
    return copy
  }

  /// Whether the node or any node below it refers to the document root.
  var containsRootReference: Bool {
    switch kind {
    case .object(let properties): properties.contains { $0.node.containsRootReference }
    case .array(let items, _, _): items.containsRootReference
    case .anyOf(let branches): branches.contains { $0.containsRootReference }
    case .reference(.root): true
    case .string, .integer, .number, .boolean, .reference(.definition): false
    }
  }
}
