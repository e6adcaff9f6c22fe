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
  private static func checkCycles(in schema: GenerationSchema) throws(SchemaError) {
    var nodes: [SchemaNode.Reference: SchemaNode] = [.root: schema.root]
    for definition in schema.definitions {
      nodes[.definition(definition.name)] = definition.node
    }
    func name(of reference: SchemaNode.Reference) -> String {
      switch reference {
      case .root: schema.name
      case .definition(let name): name
      }
    }
    let starts: [SchemaNode.Reference] = [.root] + schema.definitions.map { .definition($0.name) }
    for start in starts {
      var visited: Set<SchemaNode.Reference> = []
      var pending = [start]
      while let reference = pending.popLast() {
        guard let node = nodes[reference] else { continue }
        for next in unguardedReferences(of: node) {
          if next == start {
            throw .circularReference(
              schema: name(of: start),
              context: .init(
                debugDescription: "Schema \(SchemaText.quoted(name(of: start))) refers back to itself "
                  + "through references alone"))
          }
          if visited.insert(next).inserted { pending.append(next) }
        }
      }
    }
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
