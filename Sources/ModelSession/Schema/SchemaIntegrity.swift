import Foundation

/// The checks every `GenerationSchema` passes, however it was made: every
/// reference resolves, every guide can hold, and no chain of references and
/// `anyOf` branches loops back on itself without reaching a value.
enum SchemaIntegrity {
  typealias SchemaError = GenerationSchema.SchemaError

  static func check(_ schema: GenerationSchema) throws(SchemaError) {
    let definitionNames = Set(schema.definitions.map(\.name))
    var undefined: [(owner: String, name: String)] = []
    collectUndefinedReferences(in: schema.root, owner: schema.name, known: definitionNames, into: &undefined)
    for definition in schema.definitions {
      collectUndefinedReferences(
        in: definition.node, owner: definition.name, known: definitionNames, into: &undefined)
    }
    if let first = undefined.first {
      var names: [String] = []
      for entry in undefined where entry.owner == first.owner && !names.contains(entry.name) {
        names.append(entry.name)
      }
      throw .undefinedReferences(
        schema: first.owner, references: names,
        context: .init(
          debugDescription: "Schema \(SchemaText.quoted(first.owner)) refers to undefined schema "
            + names.map { SchemaText.quoted($0) }.joined(separator: ", ")))
    }
    try checkGuides(in: schema.root, owner: schema.name, pointer: "#")
    for definition in schema.definitions {
      try checkGuides(
        in: definition.node, owner: definition.name,
        pointer: "#/$defs/\(SchemaText.pointerSegment(definition.name))")
    }
    try checkCycles(in: schema)
  }

  private static func collectUndefinedReferences(
    in node: SchemaNode, owner: String, known: Set<String>,
    into undefined: inout [(owner: String, name: String)]
  ) {
    let owner = node.title ?? owner
    switch node.kind {
    case .object(let properties):
      for property in properties {
        collectUndefinedReferences(in: property.node, owner: owner, known: known, into: &undefined)
      }
    case .array(let items, _, _):
      collectUndefinedReferences(in: items, owner: owner, known: known, into: &undefined)
    case .anyOf(let branches):
      for branch in branches {
        collectUndefinedReferences(in: branch, owner: owner, known: known, into: &undefined)
      }
    case .reference(.definition(let name)) where !known.contains(name):
      undefined.append((owner, name))
    case .string, .integer, .number, .boolean, .reference:
      break
    }
  }

  private static func checkGuides(in node: SchemaNode, owner: String, pointer: String) throws(SchemaError) {
    let owner = node.title ?? owner
    func invalid(_ message: String) -> SchemaError {
      .invalidGuide(
        schema: owner,
        context: .init(debugDescription: "Schema \(SchemaText.quoted(owner)) at \(pointer): \(message)"))
    }
    switch node.kind {
    case .object(let properties):
      for property in properties {
        try checkGuides(
          in: property.node, owner: owner,
          pointer: "\(pointer)/properties/\(SchemaText.pointerSegment(property.name))")
      }
    case .array(let items, let minimumCount, let maximumCount):
      if let minimumCount, minimumCount < 0 { throw invalid("minimum count \(minimumCount) is negative") }
      if let maximumCount, maximumCount < 0 { throw invalid("maximum count \(maximumCount) is negative") }
      if let minimumCount, let maximumCount, minimumCount > maximumCount {
        throw invalid("minimum count \(minimumCount) is greater than maximum count \(maximumCount)")
      }
      try checkGuides(in: items, owner: owner, pointer: "\(pointer)/items")
    case .string(let rules):
      if let choices = rules.choices, choices.isEmpty { throw invalid("the list of allowed values is empty") }
      if let constant = rules.constant, let choices = rules.choices, !choices.contains(constant) {
        throw invalid("constant \"\(constant)\" is not one of the allowed values")
      }
      if let pattern = rules.pattern {
        do {
          _ = try NSRegularExpression(pattern: pattern)
        } catch {
          throw invalid("pattern \"\(pattern)\" is not a valid regular expression")
        }
      }
    case .integer(let rules), .number(let rules):
      for bound in [rules.minimum, rules.maximum].compactMap(\.self) where !bound.isFinite {
        throw invalid("bound \(bound) is not a finite number")
      }
      if let minimum = rules.minimum, let maximum = rules.maximum, minimum > maximum {
        throw invalid(
          "minimum \(SchemaText.number(minimum)) is greater than maximum \(SchemaText.number(maximum))")
      }
    case .anyOf(let branches):
      guard !branches.isEmpty else {
        throw .emptyTypeChoices(
          schema: owner,
          context: .init(debugDescription: "Schema \(SchemaText.quoted(owner)) at \(pointer) has no choices"))
      }
      for (index, branch) in branches.enumerated() {
        try checkGuides(in: branch, owner: owner, pointer: "\(pointer)/anyOf/\(index)")
      }
    case .boolean, .reference:
      break
    }
  }

  /// Fails when following references and `anyOf` branches (which consume no
  /// content) from the root or a definition can come back to where it started.
  /// Refuses a schema in which a root or definition leads back to itself
  /// through references and `anyOf` branches alone (it could never be
  /// satisfied by reading content), naming the first such one in document
  /// order. The graph's strongly connected components are found once
  /// (Tarjan's algorithm, without recursion), so a chain of 50,000 references
  /// costs 50,000 steps, not one walk of the rest of the chain per definition.
  private static func checkCycles(in schema: GenerationSchema) throws(SchemaError) {
    var nodes: [SchemaNode.Reference: SchemaNode] = [.root: schema.root]
    for definition in schema.definitions {
      nodes[.definition(definition.name)] = definition.node
    }
    let starts: [SchemaNode.Reference] = [.root] + schema.definitions.map { .definition($0.name) }
    var numbers: [SchemaNode.Reference: Int] = [:]
    for (number, reference) in starts.enumerated() {
      numbers[reference] = number  // The last of a name defined twice, as `nodes` holds it.
    }
    let edges = starts.map { reference in
      nodes[reference].map { unguardedReferences(of: $0).compactMap { numbers[$0] } } ?? []
    }
    let onCycle = nodesOnCycles(edges: edges)
    for (number, start) in starts.enumerated() where onCycle[numbers[start] ?? number] {
      let name =
        switch start {
        case .root: schema.name
        case .definition(let name): name
        }
      throw .circularReference(
        schema: name,
        context: .init(
          debugDescription: "Schema \(SchemaText.quoted(name)) refers back to itself through references alone"
        ))
    }
  }

  /// Which nodes of a graph (`edges[node]`: the nodes it leads to) lie on a
  /// cycle: those in a strongly connected component of two or more nodes, or
  /// with an edge to themselves. Tarjan's algorithm with an explicit stack.
  static func nodesOnCycles(edges: [[Int]]) -> [Bool] {
    let count = edges.count
    var discovered = [Int](repeating: -1, count: count)
    var lowest = [Int](repeating: 0, count: count)
    var onStack = [Bool](repeating: false, count: count)
    var onCycle = [Bool](repeating: false, count: count)
    var component: [Int] = []
    var next = 0
    for root in 0..<count where discovered[root] < 0 {
      var walk: [(node: Int, edge: Int)] = []
      func enter(_ node: Int) {
        discovered[node] = next
        lowest[node] = next
        next += 1
        component.append(node)
        onStack[node] = true
        walk.append((node, 0))
      }
      enter(root)
      while let (node, edge) = walk.last {
        if edge < edges[node].count {
          walk[walk.count - 1].edge += 1
          let target = edges[node][edge]
          if target == node { onCycle[node] = true }
          if discovered[target] < 0 {
            enter(target)
          } else if onStack[target] {
            lowest[node] = min(lowest[node], discovered[target])
          }
          continue
        }
        walk.removeLast()
        if let parent = walk.last?.node {
          lowest[parent] = min(lowest[parent], lowest[node])
        }
        guard lowest[node] == discovered[node] else { continue }
        var members: [Int] = []
        while let member = component.popLast() {
          onStack[member] = false
          members.append(member)
          if member == node { break }
        }
        if members.count > 1 {
          for member in members { onCycle[member] = true }
        }
      }
    }
    return onCycle
  }

  /// The references a node leads to without reading any content.
  private static func unguardedReferences(of node: SchemaNode) -> [SchemaNode.Reference] {
    switch node.kind {
    case .reference(let reference): [reference]
    case .anyOf(let branches): branches.flatMap(unguardedReferences(of:))
    case .object, .array, .string, .integer, .number, .boolean: []
    }
  }
}
