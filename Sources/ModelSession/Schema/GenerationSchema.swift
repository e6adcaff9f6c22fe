/// The schema of a value the model generates: a tool's arguments or a
/// guided response.
///
/// Build one at run time from `DynamicGenerationSchema` values. It encodes to
/// standard JSON Schema (see `jsonSchema` and `Codable`), and checks content
/// against itself with `validate(_:)`.
///
/// ```swift
/// let person = DynamicGenerationSchema(name: "Person", properties: [
///   .init(name: "name", schema: DynamicGenerationSchema(type: String.self)),
///   .init(name: "age", schema: DynamicGenerationSchema(type: Int.self, guides: [.range(0...130)]),
///         isOptional: true),
/// ])
/// let schema = try GenerationSchema(
///   root: DynamicGenerationSchema(arrayOf: DynamicGenerationSchema(referenceTo: "Person")),
///   dependencies: [person])
/// try schema.validate(GeneratedContent(elements: [GeneratedContent(properties: ["name": "Ada"])]))
/// ```
public struct GenerationSchema: Sendable, Hashable {
  /// A named schema that references point to, written under `$defs`.
  struct Definition: Sendable, Hashable {
    var name: String
    var node: SchemaNode
  }

  /// The schema of the value itself.
  let root: SchemaNode
  /// The named schemas that `$ref`s point to, in declared order.
  let definitions: [Definition]

  /// Wraps nodes that were already checked (or that need no check).
  init(node: SchemaNode, definitions: [Definition] = []) {
    self.root = node
    self.definitions = definitions
  }

  /// Builds a schema from a root and the named schemas it references.
  ///
  /// Every `DynamicGenerationSchema(referenceTo:)` must name a dependency, or
  /// the root itself (for a recursive schema). Dependencies must be named
  /// (objects and `anyOf` schemas have names) and names must be unique. A
  /// named schema may appear inline more than once when it is the same each time.
  ///
  /// - Throws: `GenerationSchema.SchemaError` naming the schema at fault: a
  ///   reference to a schema that is not defined, a name defined twice, a
  ///   property listed twice, an empty set of choices, a guide that cannot
  ///   hold (such as a minimum above the maximum, or a pattern that does not
  ///   compile), or references that only lead to each other.
  public init(root: DynamicGenerationSchema, dependencies: [DynamicGenerationSchema]) throws {
    self = try SchemaResolver.resolve(root: root, dependencies: dependencies)
  }

  /// The schema's name: the root's name (its `title`), the name of the
  /// definition a reference root points to, or else the root's JSON type
  /// (`"array"`, `"string"`, …).
  public var name: String { root.schemaName }

  /// What the root value means, if the schema says.
  public var description: String? { root.description }

  /// The definition named `name`, if any.
  func definition(named name: String) -> SchemaNode? {
    definitions.first { $0.name == name }?.node
  }

  /// The root and definitions, ready to be placed inside another schema: a
  /// root that refers to itself (`#`) moves into the definitions under its
  /// name, because `#` would mean the other schema's root there.
  var embeddable: (node: SchemaNode, definitions: [Definition]) {
    guard root.containsRootReference else { return (root, definitions) }
    let moved = Definition(name: name, node: root.replacingRootReferences(with: name))
    let others = definitions.map {
      Definition(name: $0.name, node: $0.node.replacingRootReferences(with: name))
    }
    return (SchemaNode(kind: .reference(.definition(name))), [moved] + others)
  }
}

extension GenerationSchema: CustomDebugStringConvertible {
  /// The schema as compact JSON Schema text.
  public var debugDescription: String { "GenerationSchema(\(jsonSchema))" }
}
