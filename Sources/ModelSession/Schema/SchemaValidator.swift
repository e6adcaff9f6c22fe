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
  /// Validation never recurses, so any depth of content is checked on any
  /// thread's stack, and each pair of schema node and content value is
  /// checked at most once, so `anyOf` over recursive branches takes time in
  /// proportion to the schema's size times the content's, never exponential.
  ///
  /// ```swift
  /// try schema.validate(GeneratedContent(properties: ["name": "Ada", "age": 36]))
  /// ```
  ///
  /// - Throws: `SchemaValidationError` with the path of the mismatch and what
  ///   was expected there.
  public func validate(_ content: GeneratedContent) throws(SchemaValidationError) {
    var validator = SchemaValidator(schema: CompiledSchema(self), content: ContentGraph(content))
    try validator.validate()
  }
}

/// Walks content and schema nodes together, iteratively, remembering the
/// outcome of every (schema node, value) pair it has checked.
struct SchemaValidator {
  let schema: CompiledSchema
  let content: ContentGraph
  /// Outcomes known so far, by ``key(_:_:)``.
  private var outcomes: [Int: Bool] = [:]
  /// Compiled patterns, by source.
  private var expressions: [String: NSRegularExpression?] = [:]

  init(schema: CompiledSchema, content: ContentGraph) {
    self.schema = schema
    self.content = content
  }

  /// Throws the first mismatch, found by following the first failing child
  /// down from the root (one path, so no recursion is needed here either).
  mutating func validate() throws(SchemaValidationError) {
    var node = 0
    var value = 0
    var path = "$"
    while true {
      switch try firstFailure(node, value, path: path) {
      case nil:
        return
      case .some(.descend(let childNode, let childValue, let childPath)):
        guard !matches(childNode, childValue) else { return }  // a cycle with no finite check
        (node, value, path) = (childNode, childValue, childPath)
      }
    }
  }

  // MARK: - The error path

  private enum Step {
    case descend(node: Int, value: Int, path: String)
  }

  /// The mismatch at this pair (thrown), the child pair that fails (to descend
  /// into), or `nil` when the pair matches.
  private mutating func firstFailure(
    _ node: Int, _ value: Int, path: String
  ) throws(SchemaValidationError)
    -> Step?
  {
    switch schema.nodes[node] {
    case .object(let properties, let names):
      // Property by property in declared order, so not `localMismatch`, which checks all keys first.
      guard case .structure(let keys, _) = content.values[value].storage else {
        throw SchemaValidationError(
          path: path, reason: .typeMismatch(expected: "object", found: content.values[value].typeName))
      }
      for property in properties {
        guard let index = keys.firstIndex(of: property.name) else {
          if property.isRequired {
            throw SchemaValidationError(path: path, reason: .missingProperty(property.name))
          }
          continue
        }
        let child = content.children[value][index]
        if !property.isRequired, case .null = content.values[child].storage { continue }
        if !matches(property.node, child) {
          return .descend(node: property.node, value: child, path: Self.path(path, property: property.name))
        }
      }
      if let key = keys.first(where: { !names.contains($0) }) {
        throw SchemaValidationError(path: path, reason: .unknownProperty(key))
      }
      return nil
    case .array(let items, _, _):
      if let reason = localMismatch(node, value) { throw SchemaValidationError(path: path, reason: reason) }
      for (index, child) in content.children[value].enumerated() where !matches(items, child) {
        return .descend(node: items, value: child, path: "\(path)[\(index)]")
      }
      return nil
    case .anyOf(let branches):
      if branches.contains(where: { matches($0, value) }) { return nil }
      throw SchemaValidationError(path: path, reason: .noMatchingBranch(branches: branches.count))
    case .reference(let target):
      guard let target else { return nil }
      return matches(target, value) ? nil : .descend(node: target, value: value, path: path)
    case .string, .integer, .number, .boolean:
      if let reason = localMismatch(node, value) { throw SchemaValidationError(path: path, reason: reason) }
      return nil
    }
  }

  /// What is wrong with the value itself at this node, without looking at its children.
  private mutating func localMismatch(_ node: Int, _ value: Int) -> SchemaValidationError.Reason? {
    let storage = content.values[value].storage
    let found = content.values[value].typeName
    switch schema.nodes[node] {
    case .object(let properties, let names):
      guard case .structure(let keys, _) = storage else {
        return .typeMismatch(expected: "object", found: found)
      }
      if let missing = properties.first(where: { $0.isRequired && !keys.contains($0.name) }) {
        return .missingProperty(missing.name)
      }
      if let unknown = keys.first(where: { !names.contains($0) }) { return .unknownProperty(unknown) }
      return nil
    case .array(_, let minimumCount, let maximumCount):
      guard case .array(let elements) = storage else { return .typeMismatch(expected: "array", found: found) }
      if let minimumCount, elements.count < minimumCount {
        return .tooFewElements(count: elements.count, minimum: minimumCount)
      }
      if let maximumCount, elements.count > maximumCount {
        return .tooManyElements(count: elements.count, maximum: maximumCount)
      }
      return nil
    case .string(let rules):
      guard case .string(let text) = storage else { return .typeMismatch(expected: "string", found: found) }
      if let choices = rules.choices, !choices.contains(text) { return .notAllowed(text, allowed: choices) }
      if let constant = rules.constant, text != constant { return .notConstant(text, expected: constant) }
      if let pattern = rules.pattern, !contains(text, pattern: pattern) {
        return .patternMismatch(text, pattern: pattern)
      }
      return nil
    case .integer(let rules):
      guard case .number(let number) = storage else {
        return .typeMismatch(expected: "integer", found: found)
      }
      guard number.isFinite, number.rounded() == number else { return .notAnInteger(number) }
      return Self.check(number, rules)
    case .number(let rules):
      guard case .number(let number) = storage else { return .typeMismatch(expected: "number", found: found) }
      return Self.check(number, rules)
    case .boolean:
      guard case .bool = storage else { return .typeMismatch(expected: "boolean", found: found) }
      return nil
    case .anyOf, .reference:
      return nil
    }
  }

  // MARK: - Whether a pair matches

  /// One pair being checked, and how far.
  private struct Frame {
    var node: Int
    var value: Int
    /// The child pairs that decide this one (`nil` until the frame is first looked at).
    var pairs: [(Int, Int)]? = nil
    /// The next child pair to check.
    var next = 0
  }

  /// Whether `value` matches `node`, computed with an explicit stack. A pair
  /// met again while it is still being checked (a reference cycle that
  /// consumes no content) counts as not matching there.
  private mutating func matches(_ node: Int, _ value: Int) -> Bool {
    let rootKey = key(node, value)
    if let known = outcomes[rootKey] { return known }
    var stack = [Frame(node: node, value: value)]
    var inProgress: Set<Int> = [rootKey]
    while var frame = stack.popLast() {
      let isAnyOf: Bool
      if case .anyOf = schema.nodes[frame.node] { isAnyOf = true } else { isAnyOf = false }
      var outcome: Bool?
      if frame.pairs == nil {
        if localMismatch(frame.node, frame.value) != nil {
          outcome = false
        } else {
          frame.pairs = childPairs(frame.node, frame.value)
        }
      }
      let pairs = frame.pairs ?? []
      while outcome == nil {
        guard frame.next < pairs.count else {
          outcome = !isAnyOf  // every child matched; or no branch did
          break
        }
        let (childNode, childValue) = pairs[frame.next]
        let childKey = key(childNode, childValue)
        if let known = outcomes[childKey] ?? (inProgress.contains(childKey) ? false : nil) {
          frame.next += 1
          // anyOf: one matching branch is enough; anything else: one mismatch is enough.
          if known == isAnyOf { outcome = known }
          continue
        }
        // Check the child first, then come back to this frame.
        stack.append(frame)
        stack.append(Frame(node: childNode, value: childValue))
        inProgress.insert(childKey)
        break
      }
      guard let outcome else { continue }
      let frameKey = key(frame.node, frame.value)
      outcomes[frameKey] = outcome
      inProgress.remove(frameKey)
    }
    return outcomes[rootKey] ?? false
  }

  /// The (schema node, value) pairs whose outcomes decide this pair's, in the order they are checked.
  private func childPairs(_ node: Int, _ value: Int) -> [(Int, Int)] {
    switch schema.nodes[node] {
    case .object(let properties, _):
      guard case .structure(let keys, _) = content.values[value].storage else { return [] }
      var pairs: [(Int, Int)] = []
      for property in properties {
        guard let index = keys.firstIndex(of: property.name) else { continue }
        let child = content.children[value][index]
        if !property.isRequired, case .null = content.values[child].storage { continue }
        pairs.append((property.node, child))
      }
      return pairs
    case .array(let items, _, _):
      return content.children[value].map { (items, $0) }
    case .anyOf(let branches):
      return branches.map { ($0, value) }
    case .reference(let target):
      return target.map { [($0, value)] } ?? []
    case .string, .integer, .number, .boolean:
      return []
    }
  }

  private func key(_ node: Int, _ value: Int) -> Int {
    node &* content.values.count &+ value
  }

  // MARK: - Leaves

  private static func check(_ value: Double, _ rules: SchemaNode.NumberRules) -> SchemaValidationError.Reason?
  {
    if let minimum = rules.minimum, value < minimum { return .belowMinimum(value, minimum: minimum) }
    if let maximum = rules.maximum, value > maximum { return .aboveMaximum(value, maximum: maximum) }
    return nil
  }

  /// Whether `value` contains a match of `pattern`. A pattern that does not
  /// compile (which `SchemaIntegrity` rules out) matches nothing.
  private mutating func contains(_ value: String, pattern: String) -> Bool {
    let expression: NSRegularExpression?
    if let known = expressions[pattern] {
      expression = known
    } else {
      expression = try? NSRegularExpression(pattern: pattern)
      expressions[pattern] = expression
    }
    guard let expression else { return false }
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
