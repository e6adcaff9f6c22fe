extension GenerationSchema {
  /// The schema as a standard JSON Schema document, with its keys in a fixed
  /// order so that the same schema always gives the same bytes.
  ///
  /// Each node writes, in this order and only when it applies: `$ref`, `type`,
  /// `title`, `description`, `properties` (declared order), `required`
  /// (declared order), `items`, `minItems`, `maxItems`, `enum`, `const`,
  /// `pattern`, `minimum`, `maximum`, `anyOf`, `additionalProperties` (always
  /// `false` on objects); the root then writes `$defs` (declared order).
  /// References are written `{"$ref": "#/$defs/Name"}`, or `{"$ref": "#"}` for
  /// the root.
  ///
  /// ```swift
  /// let schema = try GenerationSchema(
  ///   root: DynamicGenerationSchema(name: "City", properties: [
  ///     .init(name: "name", schema: DynamicGenerationSchema(type: String.self))
  ///   ]), dependencies: [])
  /// schema.jsonSchema.jsonString
  /// // {"type":"object","title":"City","properties":{"name":{"type":"string"}},
  /// //  "required":["name"],"additionalProperties":false}
  /// ```
  public var jsonSchema: GeneratedContent {
    var document = JSONSchemaWriter.object(for: root)
    if !definitions.isEmpty, case .structure(var keys, var values) = document.storage {
      keys.append("$defs")
      values.append(
        GeneratedContent(
          orderedProperties: definitions.map { ($0.name, JSONSchemaWriter.object(for: $0.node)) }))
      document = GeneratedContent(storage: .structure(keys: keys, values: values))
    }
    return document
  }
}

/// Writes schema nodes as JSON Schema objects in the fixed key order.
enum JSONSchemaWriter {
  static func object(for node: SchemaNode) -> GeneratedContent {
    var pairs: [(String, GeneratedContent)] = []
    if case .reference(let reference) = node.kind {
      pairs.append(("$ref", string(pointer(to: reference))))
    }
    if let type = typeKeyword(of: node.kind) {
      pairs.append(("type", string(type)))
    }
    if let title = node.title { pairs.append(("title", string(title))) }
    if let description = node.description { pairs.append(("description", string(description))) }
    switch node.kind {
    case .object(let properties):
      pairs.append(
        (
          "properties",
          GeneratedContent(orderedProperties: properties.map { ($0.name, object(for: $0.node)) })
        ))
      pairs.append(
        (
          "required",
          GeneratedContent(storage: .array(properties.filter(\.isRequired).map { string($0.name) }))
        ))
      pairs.append(("additionalProperties", GeneratedContent(storage: .bool(false))))
    case .array(let items, let minimumCount, let maximumCount):
      pairs.append(("items", object(for: items)))
      if let minimumCount { pairs.append(("minItems", number(Double(minimumCount)))) }
      if let maximumCount { pairs.append(("maxItems", number(Double(maximumCount)))) }
    case .string(let rules):
      if let choices = rules.choices {
        pairs.append(("enum", GeneratedContent(storage: .array(choices.map(string)))))
      }
      if let constant = rules.constant { pairs.append(("const", string(constant))) }
      if let pattern = rules.pattern { pairs.append(("pattern", string(pattern))) }
    case .integer(let rules), .number(let rules):
      if let minimum = rules.minimum { pairs.append(("minimum", number(minimum))) }
      if let maximum = rules.maximum { pairs.append(("maximum", number(maximum))) }
    case .anyOf(let branches):
      pairs.append(("anyOf", GeneratedContent(storage: .array(branches.map(object(for:))))))
    case .boolean, .reference:
      break
    }
    return GeneratedContent(orderedProperties: pairs)
  }

  /// The `$ref` value for a reference.
  static func pointer(to reference: SchemaNode.Reference) -> String {
    switch reference {
    case .root: "#"
    case .definition(let name): "#/$defs/\(SchemaText.pointerSegment(name))"
    }
  }

  private static func typeKeyword(of kind: SchemaNode.Kind) -> String? {
    switch kind {
    case .object: "object"
    case .array: "array"
    case .string: "string"
    case .integer: "integer"
    case .number: "number"
    case .boolean: "boolean"
    case .anyOf, .reference: nil
    }
  }

  private static func string(_ value: String) -> GeneratedContent {
    GeneratedContent(storage: .string(value))
  }

  private static func number(_ value: Double) -> GeneratedContent {
    GeneratedContent(storage: .number(value))
  }
}
