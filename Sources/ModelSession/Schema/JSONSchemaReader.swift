extension GenerationSchema {
  /// Reads a JSON Schema document, such as one that `jsonSchema` wrote.
  ///
  /// Reads the subset that `jsonSchema` writes: `type` (`object`, `array`,
  /// `string`, `integer`, `number`, `boolean`), `title`, `description`,
  /// `properties`, `required`, `items`, `minItems`, `maxItems`, `enum` and
  /// `const` (of strings), `pattern`, `minimum`, `maximum`, `anyOf`, `$ref`
  /// (`#` or `#/$defs/Name`) and `$defs`. Other keywords, such as `format` or
  /// `default`, are ignored; objects never allow extra properties. Properties
  /// and definitions keep the order of the document's keys.
  ///
  /// ```swift
  /// let schema = try GenerationSchema(jsonSchema: original.jsonSchema)  // == original
  /// ```
  ///
  /// - Throws: `SchemaError.invalidJSONSchema` with the JSON Pointer of the
  ///   part it cannot read, or the errors of `init(root:dependencies:)` for a
  ///   document that reads but does not hold together.
  public init(jsonSchema: GeneratedContent) throws {
    self = try JSONSchemaReader(ordersPropertiesByRequired: false).read(jsonSchema)
  }
}

/// Reads JSON Schema documents into schema nodes.
struct JSONSchemaReader {
  typealias SchemaError = GenerationSchema.SchemaError

  /// Whether properties listed in `required` come first, in that order, and
  /// the others follow in document order: for documents whose object keys lost
  /// their order, such as those decoded through `Decoder`.
  var ordersPropertiesByRequired: Bool

  /// How deeply schemas may nest (properties, items, anyOf branches) in a
  /// document read here. Deeper documents are refused with a typed error, so
  /// that reading, comparing and writing a decoded schema (which walk it
  /// recursively) stay within any thread's stack; a real schema is a few levels deep.
  static let maximumDepth = 64

  func read(_ document: GeneratedContent) throws(SchemaError) -> GenerationSchema {
    let root = try node(from: document, pointer: "#", depth: 0)
    var definitions: [GenerationSchema.Definition] = []
    if let defs = document[property: "$defs"] {
      guard case .structure(let names, let values) = defs.storage else {
        throw Self.invalid("#/$defs", "expected an object, found \(defs.typeName)")
      }
      for (name, value) in zip(names, values) {
        var definition = try node(
          from: value, pointer: "#/$defs/\(SchemaText.pointerSegment(name))", depth: 1)
        if definition.title == nil {
          definition.title = name
        }
        definitions.append(.init(name: name, node: definition))
      }
    }
    let schema = GenerationSchema(node: root, definitions: definitions)
    try SchemaIntegrity.check(schema)
    return schema
  }

  private func node(
    from content: GeneratedContent, pointer: String, depth: Int
  ) throws(SchemaError)
    -> SchemaNode
  {
    guard depth <= Self.maximumDepth else {
      throw Self.invalid(pointer, "schemas nest more than \(Self.maximumDepth) levels deep")
    }
    guard case .structure = content.storage else {
      throw Self.invalid(pointer, "expected a schema object, found \(content.typeName)")
    }
    let title = try string(content, "title", pointer)
    let description = try string(content, "description", pointer)
    return SchemaNode(
      title: title, description: description, kind: try kind(of: content, pointer: pointer, depth: depth))
  }

  private func kind(
    of content: GeneratedContent, pointer: String, depth: Int
  ) throws(SchemaError)
    -> SchemaNode.Kind
  {
    if let reference = try string(content, "$ref", pointer) {
      if reference == "#" { return .reference(.root) }
      let prefix = "#/$defs/"
      guard reference.hasPrefix(prefix), reference.count > prefix.count else {
        throw Self.invalid("\(pointer)/$ref", "only \"#\" and \"#/$defs/Name\" references are supported")
      }
      return .reference(.definition(SchemaText.name(fromPointerSegment: reference.dropFirst(prefix.count))))
    }
    if let choices = content[property: "anyOf"] {
      guard case .array(let elements) = choices.storage else {
        throw Self.invalid("\(pointer)/anyOf", "expected an array, found \(choices.typeName)")
      }
      var branches: [SchemaNode] = []
      for (index, element) in elements.enumerated() {
        branches.append(try node(from: element, pointer: "\(pointer)/anyOf/\(index)", depth: depth + 1))
      }
      return .anyOf(branches)
    }
    guard let type = try string(content, "type", pointer) else {
      throw Self.invalid(pointer, "a schema needs \"type\", \"anyOf\" or \"$ref\"")
    }
    switch type {
    case "object": return try object(content, pointer: pointer, depth: depth)
    case "array":
      guard let items = content[property: "items"] else {
        throw Self.invalid(pointer, "an array schema needs \"items\"")
      }
      return .array(
        items: try node(from: items, pointer: "\(pointer)/items", depth: depth + 1),
        minimumCount: try count(content, "minItems", pointer),
        maximumCount: try count(content, "maxItems", pointer))
    case "string":
      return .string(
        .init(
          choices: try strings(content, "enum", pointer), constant: try string(content, "const", pointer),
          pattern: try string(content, "pattern", pointer)))
    case "integer":
      return .integer(
        .init(
          minimum: try number(content, "minimum", pointer), maximum: try number(content, "maximum", pointer)))
    case "number":
      return .number(
        .init(
          minimum: try number(content, "minimum", pointer), maximum: try number(content, "maximum", pointer)))
    case "boolean": return .boolean
    default:
      throw Self.invalid("\(pointer)/type", "type \"\(type)\" is not supported")
    }
  }

  private func object(
    _ content: GeneratedContent, pointer: String, depth: Int
  ) throws(SchemaError)
    -> SchemaNode.Kind
  {
    var names: [String] = []
    var nodes: [SchemaNode] = []
    if let properties = content[property: "properties"] {
      guard case .structure(let keys, let values) = properties.storage else {
        throw Self.invalid("\(pointer)/properties", "expected an object, found \(properties.typeName)")
      }
      names = keys
      for (key, value) in zip(keys, values) {
        nodes.append(
          try node(
            from: value, pointer: "\(pointer)/properties/\(SchemaText.pointerSegment(key))", depth: depth + 1)
        )
      }
    }
    let required = try strings(content, "required", pointer) ?? []
    for name in required where !names.contains(name) {
      throw Self.invalid("\(pointer)/required", "required property \"\(name)\" is not among the properties")
    }
    var properties = zip(names, nodes).map {
      SchemaNode.Property(name: $0, node: $1, isRequired: required.contains($0))
    }
    if ordersPropertiesByRequired {
      let listed = required.compactMap { name in properties.first { $0.name == name } }
      properties = listed + properties.filter { !$0.isRequired }
    }
    return .object(properties)
  }

  private func string(
    _ content: GeneratedContent, _ key: String, _ pointer: String
  ) throws(SchemaError) -> String? {
    guard let value = content[property: key] else { return nil }
    guard case .string(let string) = value.storage else {
      throw Self.invalid("\(pointer)/\(key)", "expected a string, found \(value.typeName)")
    }
    return string
  }

  private func strings(
    _ content: GeneratedContent, _ key: String, _ pointer: String
  ) throws(SchemaError) -> [String]? {
    guard let value = content[property: key] else { return nil }
    guard case .array(let elements) = value.storage else {
      throw Self.invalid("\(pointer)/\(key)", "expected an array of strings, found \(value.typeName)")
    }
    var result: [String] = []
    for (index, element) in elements.enumerated() {
      guard case .string(let string) = element.storage else {
        throw Self.invalid("\(pointer)/\(key)/\(index)", "expected a string, found \(element.typeName)")
      }
      result.append(string)
    }
    return result
  }

  private func number(
    _ content: GeneratedContent, _ key: String, _ pointer: String
  ) throws(SchemaError) -> Double? {
    guard let value = content[property: key] else { return nil }
    guard case .number(let number) = value.storage else {
      throw Self.invalid("\(pointer)/\(key)", "expected a number, found \(value.typeName)")
    }
    return number
  }

  private func count(
    _ content: GeneratedContent, _ key: String, _ pointer: String
  ) throws(SchemaError) -> Int? {
    guard let number = try number(content, key, pointer) else { return nil }
    guard let count = Int(exactly: number) else {
      throw Self.invalid("\(pointer)/\(key)", "expected a whole number, found \(SchemaText.number(number))")
    }
    return count
  }

  private static func invalid(_ pointer: String, _ message: String) -> SchemaError {
    .invalidJSONSchema(
      pointer: pointer, context: .init(debugDescription: "JSON Schema at \(pointer): \(message)"))
  }
}
