/// A schema flattened into numbered nodes, with every `$ref` resolved to the
/// number of its target, so that validation can name a (schema node, value)
/// pair by two integers and walk both without recursion.
struct CompiledSchema {
  /// One node; children are numbers into ``nodes``.
  enum Node {
    case object(properties: [Property], names: Set<String>)
    case array(items: Int, minimumCount: Int?, maximumCount: Int?)
    case string(SchemaNode.StringRules)
    case integer(SchemaNode.NumberRules)
    case number(SchemaNode.NumberRules)
    case boolean
    case anyOf([Int])
    /// A reference to another node (`nil`: it did not resolve, which `SchemaIntegrity` rules out).
    case reference(Int?)
  }

  /// A property of an object node.
  struct Property {
    var name: String
    var node: Int
    var isRequired: Bool
  }

  /// The nodes; the schema's root is node 0.
  private(set) var nodes: [Node] = []

  /// Flattens `schema`, its root first, without recursion.
  init(_ schema: GenerationSchema) {
    var definitionNumbers: [String: Int] = [:]
    // Nodes waiting to be flattened, each with the number reserved for it.
    var pending: [(node: SchemaNode, number: Int)] = []
    func reserve(_ node: SchemaNode) -> Int {
      nodes.append(.boolean)
      pending.append((node, nodes.count - 1))
      return nodes.count - 1
    }
    _ = reserve(schema.root)
    for definition in schema.definitions where definitionNumbers[definition.name] == nil {
      definitionNumbers[definition.name] = reserve(definition.node)
    }
    while let (node, number) = pending.popLast() {
      switch node.kind {
      case .object(let properties):
        let compiled = properties.map {
          Property(name: $0.name, node: reserve($0.node), isRequired: $0.isRequired)
        }
        nodes[number] = .object(properties: compiled, names: Set(properties.map(\.name)))
      case .array(let items, let minimumCount, let maximumCount):
        nodes[number] = .array(items: reserve(items), minimumCount: minimumCount, maximumCount: maximumCount)
      case .string(let rules): nodes[number] = .string(rules)
      case .integer(let rules): nodes[number] = .integer(rules)
      case .number(let rules): nodes[number] = .number(rules)
      case .boolean: nodes[number] = .boolean
      case .anyOf(let branches): nodes[number] = .anyOf(branches.map { reserve($0) })
      case .reference(.root): nodes[number] = .reference(0)
      case .reference(.definition(let name)): nodes[number] = .reference(definitionNumbers[name])
      }
    }
  }
}

/// A `GeneratedContent` value flattened into numbered nodes, parents before
/// children, without recursion.
struct ContentGraph {
  /// The values; the root is value 0.
  private(set) var values: [GeneratedContent] = []
  /// The numbers of each value's elements or property values, in order.
  private(set) var children: [[Int]] = []

  init(_ root: GeneratedContent) {
    values.append(root)
    children.append([])
    var index = 0
    while index < values.count {
      let elements: [GeneratedContent]
      switch values[index].storage {
      case .array(let items): elements = items
      case .structure(_, let propertyValues): elements = propertyValues
      case .null, .bool, .number, .string: elements = []
      }
      var numbers: [Int] = []
      numbers.reserveCapacity(elements.count)
      for element in elements {
        numbers.append(values.count)
        values.append(element)
        children.append([])
      }
      children[index] = numbers
      index += 1
    }
  }
}
