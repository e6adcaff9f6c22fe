extension SchemaNode {
  /// The node with `constraints` applied; later constraints replace earlier
  /// ones that set the same thing.
  ///
  /// - Throws: `invalidGuide` naming `owner` when a constraint does not apply
  ///   to the node's type.
  func applying(
    _ constraints: [SchemaConstraint], owner: String, pointer: String
  ) throws(GenerationSchema.SchemaError) -> SchemaNode {
    var node = self
    for constraint in constraints {
      node = try node.applying(constraint, owner: owner, pointer: pointer)
    }
    return node
  }

  private func applying(
    _ constraint: SchemaConstraint, owner: String, pointer: String
  ) throws(GenerationSchema.SchemaError) -> SchemaNode {
    var node = self
    switch (constraint, kind) {
    case (.choices(let choices), .string(var rules)):
      rules.choices = choices
      node.kind = .string(rules)
    case (.constant(let value), .string(var rules)):
      rules.constant = value
      node.kind = .string(rules)
    case (.pattern(let pattern), .string(var rules)):
      rules.pattern = pattern
      node.kind = .string(rules)
    case (.minimum(let value), .integer(var rules)):
      rules.minimum = value
      node.kind = .integer(rules)
    case (.minimum(let value), .number(var rules)):
      rules.minimum = value
      node.kind = .number(rules)
    case (.maximum(let value), .integer(var rules)):
      rules.maximum = value
      node.kind = .integer(rules)
    case (.maximum(let value), .number(var rules)):
      rules.maximum = value
      node.kind = .number(rules)
    case (.minimumCount(let count), .array(let items, _, let maximumCount)):
      node.kind = .array(items: items, minimumCount: count, maximumCount: maximumCount)
    case (.maximumCount(let count), .array(let items, let minimumCount, _)):
      node.kind = .array(items: items, minimumCount: minimumCount, maximumCount: count)
    case (.element(let elementConstraints), .array(let items, let minimumCount, let maximumCount)):
      let guided = try items.applying(elementConstraints, owner: owner, pointer: "\(pointer)/items")
      node.kind = .array(items: guided, minimumCount: minimumCount, maximumCount: maximumCount)
    default:
      throw .invalidGuide(
        schema: owner,
        context: .init(
          debugDescription:
            "Schema \(SchemaText.quoted(owner)): guide \(constraint.guideName) does not apply "
            + "to a value of type \(typeName) at \(pointer)"))
    }
    return node
  }
}
