import Foundation

extension GenerationSchema {
  /// Checks that `content` follows the schema, and throws at the first place
  /// where it does not.
  ///
  /// Objects are checked property by property in declared order (a missing
  /// required property or a mismatch inside one), then for properties the
  /// schema does not list. An optional property may be absent or `null`.
  /// Arrays are checked for length, then element by element; `anyOf` takes
  /// the first branch that matches. Patterns are searched for anywhere in the
  /// string, as JSON Schema does; anchor them with `^…$`. They run on
  /// `NSRegularExpression` (ICU syntax), which agrees with JSON Schema's
  /// ECMA-262 dialect on classes, quantifiers, anchors, groups and alternation.
  ///
  /// ```swift
  /// try schema.validate(GeneratedContent(properties: ["name": "Ada", "age": 36]))
  /// ```
  ///
  /// - Throws: `SchemaValidationError` with the path of the mismatch and what
  ///   was expected there.
  public func validate(_ content: GeneratedContent) throws(SchemaValidationError) {
    try SchemaValidator(schema: self).validate(content, against: root, path: "$")
  }
}

/// Walks content and schema nodes together.
struct SchemaValidator {
  let schema: GenerationSchema

  func validate(
    _ content: GeneratedContent, against node: SchemaNode, path: String
  ) throws(SchemaValidationError) {
    func fail(_ reason: SchemaValidationError.Reason) -> SchemaValidationError {
      SchemaValidationError(path: path, reason: reason)
    }
    switch node.kind {
    case .object(let properties):
      guard case .structure(let keys, let values) = content.storage else {
        throw fail(.typeMismatch(expected: "object", found: content.typeName))
      }
      for property in properties {
        guard let index = keys.firstIndex(of: property.name) else {
          if property.isRequired { throw fail(.missingProperty(property.name)) }
          continue
        }
        if !property.isRequired, case .null = values[index].storage { continue }
        try validate(values[index], against: property.node, path: Self.path(path, property: property.name))
      }
      for key in keys where !properties.contains(where: { $0.name == key }) {
        throw fail(.unknownProperty(key))
      }
    case .array(let items, let minimumCount, let maximumCount):
      guard case .array(let elements) = content.storage else {
        throw fail(.typeMismatch(expected: "array", found: content.typeName))
      }
      if let minimumCount, elements.count < minimumCount {
        throw fail(.tooFewElements(count: elements.count, minimum: minimumCount))
      }
      if let maximumCount, elements.count > maximumCount {
        throw fail(.tooManyElements(count: elements.count, maximum: maximumCount))
      }
      for (index, element) in elements.enumerated() {
        try validate(element, against: items, path: "\(path)[\(index)]")
      }
    case .string(let rules):
      guard case .string(let value) = content.storage else {
        throw fail(.typeMismatch(expected: "string", found: content.typeName))
      }
      if let choices = rules.choices, !choices.contains(value) {
        throw fail(.notAllowed(value, allowed: choices))
      }
      if let constant = rules.constant, value != constant {
        throw fail(.notConstant(value, expected: constant))
      }
      if let pattern = rules.pattern, !Self.contains(value, pattern: pattern) {
        throw fail(.patternMismatch(value, pattern: pattern))
      }
    case .integer(let rules):
      guard case .number(let value) = content.storage else {
        throw fail(.typeMismatch(expected: "integer", found: content.typeName))
      }
      guard value.isFinite, value.rounded() == value else { throw fail(.notAnInteger(value)) }
      try check(value, rules, fail)
    case .number(let rules):
      guard case .number(let value) = content.storage else {
        throw fail(.typeMismatch(expected: "number", found: content.typeName))
      }
      try check(value, rules, fail)
    case .boolean:
      guard case .bool = content.storage else {
        throw fail(.typeMismatch(expected: "boolean", found: content.typeName))
      }
    case .anyOf(let branches):
      for branch in branches {
        if (try? validate(content, against: branch, path: path)) != nil { return }
      }
      throw fail(.noMatchingBranch(branches: branches.count))
    case .reference(let reference):
      // `SchemaIntegrity` made sure every reference resolves when the schema was built.
      let target: SchemaNode? =
        switch reference {
        case .root: schema.root
        case .definition(let name): schema.definition(named: name)
        }
      if let target {
        try validate(content, against: target, path: path)
      }
    }
  }

  private func check(
    _ value: Double, _ rules: SchemaNode.NumberRules,
    _ fail: (SchemaValidationError.Reason) -> SchemaValidationError
  ) throws(SchemaValidationError) {
    if let minimum = rules.minimum, value < minimum { throw fail(.belowMinimum(value, minimum: minimum)) }
    if let maximum = rules.maximum, value > maximum { throw fail(.aboveMaximum(value, maximum: maximum)) }
  }

  /// Whether `value` contains a match of `pattern`. A pattern that does not
  /// compile (which `SchemaIntegrity` rules out) matches nothing.
  private static func contains(_ value: String, pattern: String) -> Bool {
    guard let expression = try? NSRegularExpression(pattern: pattern) else { return false }
    let range = NSRange(value.startIndex..<value.endIndex, in: value)
    return expression.firstMatch(in: value, range: range) != nil
  }

  /// The path of property `name` below `path`.
  static func path(_ path: String, property name: String) -> String {
    let isIdentifier =
      name.first.map { $0.isLetter || $0 == "_" } == true
      && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    if isIdentifier { return "\(path).\(name)" }
    let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
      of: "\"", with: "\\\"")
    return "\(path)[\"\(escaped)\"]"
  }
}
