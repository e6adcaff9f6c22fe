/// Turns a root `DynamicGenerationSchema` and its dependencies into a checked
/// `GenerationSchema`.
struct SchemaResolver {
  typealias SchemaError = GenerationSchema.SchemaError

  /// The root's name, which a reference may use for a recursive schema.
  let rootName: String?
  /// The names of the dependencies, which become `$defs`.
  let dependencyNames: Set<String>
  /// Every named schema met so far, resolved, to catch one name used for two
  /// different schemas.
  private var namedNodes: [String: SchemaNode] = [:]
  /// Definitions brought in by `DynamicGenerationSchema(type:)` values.
  private var embeddedDefinitions: [GenerationSchema.Definition] = []

  private init(rootName: String?, dependencyNames: Set<String>) {
    self.rootName = rootName
    self.dependencyNames = dependencyNames
  }

  /// Resolves and checks a whole schema.
  static func resolve(
    root: DynamicGenerationSchema, dependencies: [DynamicGenerationSchema]
  ) throws(SchemaError) -> GenerationSchema {
    var names: [String] = []
    for (index, dependency) in dependencies.enumerated() {
      guard let name = dependency.name else {
        throw .unnamedDependency(
          context: .init(
            debugDescription: "Dependency \(index) of schema \(SchemaText.quoted(root.name)) has no name; "
              + "only objects, anyOf schemas and named types can be dependencies"))
      }
      if names.contains(name) || name == root.name {
        throw .duplicateType(
          schema: root.name, type: name,
          context: .init(debugDescription: "Schema \(SchemaText.quoted(name)) is defined more than once"))
      }
      names.append(name)
    }
    var resolver = SchemaResolver(rootName: root.name, dependencyNames: Set(names))
    let rootOwner = root.name ?? "root"
    let rootNode = try resolver.resolve(root, owner: rootOwner, pointer: "#")
    var definitions: [GenerationSchema.Definition] = []
    for (name, dependency) in zip(names, dependencies) {
      let node = try resolver.resolve(
        dependency, owner: name, pointer: "#/$defs/\(SchemaText.pointerSegment(name))")
      definitions.append(.init(name: name, node: node))
    }
    for embedded in resolver.embeddedDefinitions {
      let existing = definitions.first { $0.name == embedded.name }
      if embedded.name == root.name || (existing.map { $0.node != embedded.node } ?? false) {
        throw .duplicateType(
          schema: root.name, type: embedded.name,
          context: .init(
            debugDescription: "Two different schemas are named \(SchemaText.quoted(embedded.name))"))
      }
      if existing == nil {
        definitions.append(embedded)
      }
    }
    let schema = GenerationSchema(node: rootNode, definitions: definitions)
    try SchemaIntegrity.check(schema)
    return schema
  }

  /// Resolves one schema. `owner` is the nearest named schema, for errors;
  /// `pointer` locates the node in the JSON Schema document.
  private mutating func resolve(
    _ schema: DynamicGenerationSchema, owner: String, pointer: String
  ) throws(SchemaError) -> SchemaNode {
    switch schema.definition {
    case .object(let name, let description, let properties):
      var seen: Set<String> = []
      var resolved: [SchemaNode.Property] = []
      for property in properties {
        guard seen.insert(property.name).inserted else {
          throw .duplicateProperty(
            schema: name, property: property.name,
            context: .init(
              debugDescription:
                "Schema \(SchemaText.quoted(name)) lists property \(SchemaText.quoted(property.name)) twice"))
        }
        var node = try resolve(
          property.schema, owner: name,
          pointer: "\(pointer)/properties/\(SchemaText.pointerSegment(property.name))")
        if let description = property.description {
          node.description = description
        }
        resolved.append(.init(name: property.name, node: node, isRequired: !property.isOptional))
      }
      return try register(SchemaNode(title: name, description: description, kind: .object(resolved)))

    case .anyOf(let name, let description, let choices):
      guard !choices.isEmpty else { throw Self.emptyChoices(name) }
      var branches: [SchemaNode] = []
      for (index, choice) in choices.enumerated() {
        branches.append(try resolve(choice, owner: name, pointer: "\(pointer)/anyOf/\(index)"))
      }
      return try register(SchemaNode(title: name, description: description, kind: .anyOf(branches)))

    case .stringChoices(let name, let description, let choices):
      guard !choices.isEmpty else { throw Self.emptyChoices(name) }
      return try register(
        SchemaNode(title: name, description: description, kind: .string(.init(choices: choices))))

    case .array(let items, let minimumCount, let maximumCount):
      let itemNode = try resolve(items, owner: owner, pointer: "\(pointer)/items")
      return SchemaNode(kind: .array(items: itemNode, minimumCount: minimumCount, maximumCount: maximumCount))

    case .type(let typeSchema, let guides):
      let (node, definitions) = typeSchema.embeddable
      for definition in definitions {
        try embed(definition)
      }
      if let title = node.title {
        _ = try register(node)
        return try node.applying(guides, owner: title, pointer: pointer)
      }
      return try node.applying(guides, owner: owner, pointer: pointer)

    case .reference(let name):
      if !dependencyNames.contains(name), name == rootName {
        return SchemaNode(kind: .reference(.root))
      }
      return SchemaNode(kind: .reference(.definition(name)))
    }
  }

  /// Records a named node, and fails when the name already stands for another.
  private mutating func register(_ node: SchemaNode) throws(SchemaError) -> SchemaNode {
    guard let name = node.title else { return node }
    if let existing = namedNodes[name], existing != node {
      throw .duplicateType(
        schema: rootName, type: name,
        context: .init(debugDescription: "Two different schemas are named \(SchemaText.quoted(name))"))
    }
    namedNodes[name] = node
    return node
  }

  /// Records a definition that a type's schema brings along.
  private mutating func embed(_ definition: GenerationSchema.Definition) throws(SchemaError) {
    if let existing = embeddedDefinitions.first(where: { $0.name == definition.name }) {
      guard existing.node == definition.node else {
        throw .duplicateType(
          schema: rootName, type: definition.name,
          context: .init(
            debugDescription: "Two different schemas are named \(SchemaText.quoted(definition.name))"))
      }
      return
    }
    embeddedDefinitions.append(definition)
  }

  private static func emptyChoices(_ name: String) -> SchemaError {
    .emptyTypeChoices(
      schema: name,
      context: .init(debugDescription: "Schema \(SchemaText.quoted(name)) has no choices to pick from"))
  }
}
