/// Checks parsed front matter against the Agent Skills rules and ContextKit's
/// `metadata` settings, reporting every problem with its position in the file.
struct FrontMatterReader {
  static let knownKeys: Set<String> = [
    "name", "description", "license", "compatibility", "metadata", "allowed-tools",
  ]
  /// The key other agents read to keep a skill away from the model; not an
  /// Agent Skills field, so it is read but questionable at the top level.
  static let disableModelInvocationKey = "disable-model-invocation"
  static let maximumNameLength = 64
  static let maximumDescriptionLength = 1024
  static let maximumCompatibilityLength = 500

  /// The file's line number of the YAML text's first line.
  let firstLine: Int
  /// The name of the folder holding `SKILL.md`.
  let folderName: String

  /// The front matter, or `nil` when a required field is missing or invalid.
  func read(_ root: YAMLNode?, into diagnostics: inout DiagnosticCollector) -> SkillFrontMatter? {
    guard let root else {
      diagnostics.error("the front matter is empty; add at least name and description", line: 1, column: 1)
      return nil
    }
    guard case .mapping(let pairs) = root.value else {
      report(
        "the front matter must be YAML keys and values (name: ..., description: ...), not \(root.kindDescription)",
        at: root, into: &diagnostics)
      return nil
    }
    var fields: [String: YAMLNode] = [:]
    for pair in pairs {
      guard let key = pair.key.scalarText else {
        report(
          "front matter keys must be plain words, not \(pair.key.kindDescription)", at: pair.key,
          into: &diagnostics)
        continue
      }
      if let earlier = fields[key] {
        report(
          "duplicate key \"\(key)\" (first given on line \(earlier.line + firstLine - 1)); keep one",
          at: pair.key, into: &diagnostics)
        continue
      }
      fields[key] = pair.value
      if key == Self.disableModelInvocationKey {
        let place = position(of: pair.key)
        diagnostics.questionable(
          "disable-model-invocation is not an Agent Skills field, so other validators reject it; "
            + "write it under metadata (metadata: disable-model-invocation: \"true\") to keep the skill valid "
            + "everywhere",
          line: place.line, column: place.column)
      } else if !Self.knownKeys.contains(key) {
        let place = position(of: pair.key)
        diagnostics.questionable(
          "unknown front matter key \"\(key)\"; the known keys are "
            + "name, description, license, compatibility, metadata and allowed-tools "
            + "(put custom settings under metadata)",
          line: place.line, column: place.column)
      }
    }
    let name = readName(fields["name"], into: &diagnostics)
    let description = readText(
      "description", fields["description"], required: true, limit: Self.maximumDescriptionLength,
      into: &diagnostics)
    let license = readText("license", fields["license"], required: false, limit: nil, into: &diagnostics)
    let compatibility = readText(
      "compatibility", fields["compatibility"], required: false, limit: Self.maximumCompatibilityLength,
      into: &diagnostics)
    let metadata = readMetadata(fields["metadata"], into: &diagnostics)
    let allowedTools = readAllowedTools(fields["allowed-tools"], into: &diagnostics)
    let disablesModelInvocation = readDisableModelInvocation(
      fields[Self.disableModelInvocationKey], metadata: metadata, into: &diagnostics)
    guard let name, let description else { return nil }
    return SkillFrontMatter(
      name: name, description: description, license: license, compatibility: compatibility,
      metadata: metadata, allowedTools: allowedTools, allowsModelInvocation: !disablesModelInvocation)
  }

  /// `disable-model-invocation` at the top level (a YAML boolean) or under
  /// `metadata` (the string `"true"` or `"false"`, checked with the other
  /// metadata settings); when both are given they must agree.
  private func readDisableModelInvocation(
    _ node: YAMLNode?, metadata: [String: String], into diagnostics: inout DiagnosticCollector
  ) -> Bool {
    let fromMetadata = metadata[Self.disableModelInvocationKey].flatMap(Bool.init)
    guard let node else { return fromMetadata ?? false }
    guard let text = node.scalarText, let value = Bool(text) else {
      report(
        "disable-model-invocation must be true or false, not \(node.kindDescription)", at: node,
        into: &diagnostics)
      return fromMetadata ?? false
    }
    if let fromMetadata, fromMetadata != value {
      report(
        "disable-model-invocation is \(value) here but \"\(fromMetadata)\" under metadata; keep one",
        at: node, into: &diagnostics)
    }
    return value || fromMetadata == true
  }

  // MARK: - Fields

  private func readName(_ node: YAMLNode?, into diagnostics: inout DiagnosticCollector) -> String? {
    guard let name = readText("name", node, required: true, limit: nil, into: &diagnostics), let node else {
      return nil
    }
    var problems: [String] = []
    let length = name.unicodeScalars.count
    if length > Self.maximumNameLength {
      problems.append("name is \(length) characters; the limit is \(Self.maximumNameLength)")
    }
    if name.lowercased() != name {
      problems.append("name \"\(name)\" must be lowercase")
    } else if let bad = name.unicodeScalars.first(where: { !Self.isNameCharacter($0) }) {
      problems.append("name \"\(name)\" may only contain a-z, 0-9 and \"-\"; \"\(bad)\" is not allowed")
    }
    if name.hasPrefix("-") || name.hasSuffix("-") {
      problems.append("name \"\(name)\" must not begin or end with \"-\"")
    }
    if name.contains("--") {
      problems.append("name \"\(name)\" must not contain \"--\"")
    }
    if problems.isEmpty && name != folderName {
      problems.append(
        "name \"\(name)\" must match its folder's name \"\(folderName)\"; rename the folder or the skill")
    }
    for problem in problems { report(problem, at: node, into: &diagnostics) }
    return problems.isEmpty ? name : nil
  }

  /// Whether `name` follows the naming rules (what ``readName`` checks, except the folder).
  static func isValidName(_ name: String) -> Bool {
    !name.isEmpty && name.unicodeScalars.count <= maximumNameLength
      && name.unicodeScalars.allSatisfy(isNameCharacter)
      && !name.hasPrefix("-") && !name.hasSuffix("-") && !name.contains("--")
  }

  private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
  }

  /// A string field; reports a missing, empty, mistyped or over-long value.
  private func readText(
    _ key: String, _ node: YAMLNode?, required: Bool, limit: Int?, into diagnostics: inout DiagnosticCollector
  ) -> String? {
    guard let node else {
      if required {
        diagnostics.error("the front matter has no \(key); add a line \"\(key): ...\"", line: 1, column: 1)
      }
      return nil
    }
    guard let raw = node.stringValue else {
      let hint =
        node.scalarText.map { " (quote it: \(key): \"\($0)\")" } ?? ""
      report(
        "\(key) must be a string, but YAML reads \(node.kindDescription)\(hint)", at: node, into: &diagnostics
      )
      return nil
    }
    // Block scalars (`description: >`) end with a newline; the name is never trimmed.
    let text = key == "name" ? raw : raw.trimmingWhitespace()
    if text.allSatisfy(\.isWhitespace) {
      report("\(key) is empty", at: node, into: &diagnostics)
      return nil
    }
    let length = text.unicodeScalars.count
    if let limit, length > limit {
      report(
        "\(key) is \(CountFormatting.grouped(length)) characters; the limit is \(CountFormatting.grouped(limit))",
        at: node, into: &diagnostics)
      return nil
    }
    return text
  }

  private func readMetadata(
    _ node: YAMLNode?, into diagnostics: inout DiagnosticCollector
  ) -> [String: String] {
    guard let node else { return [:] }
    guard case .mapping(let pairs) = node.value else {
      report(
        "metadata must be a mapping of string keys to string values, not \(node.kindDescription)", at: node,
        into: &diagnostics)
      return [:]
    }
    var metadata: [String: String] = [:]
    metadata.reserveCapacity(pairs.count)
    for pair in pairs {
      guard let key = pair.key.scalarText else {
        report(
          "metadata keys must be strings, not \(pair.key.kindDescription)", at: pair.key, into: &diagnostics)
        continue
      }
      // One lookup: the value goes in only when the key is new and the value a scalar.
      let scalar = pair.value.scalarText
      guard Self.claim(&metadata[key], with: scalar) else {
        report("duplicate metadata key \"\(key)\"; keep one", at: pair.key, into: &diagnostics)
        continue
      }
      guard let value = scalar else {
        report(
          "metadata.\(key) must be a string, not \(pair.value.kindDescription)", at: pair.value,
          into: &diagnostics)
        continue
      }
      if pair.value.stringValue == nil {
        let place = position(of: pair.value)
        diagnostics.warning(
          "metadata.\(key) is \(pair.value.kindDescription) to YAML; it is read as the string \"\(value)\" "
            + "(quote it to make that explicit)",
          line: place.line, column: place.column)
      }
    }
    checkActivationSettings(metadata, pairs: pairs, into: &diagnostics)
    return metadata
  }

  /// Fills an empty `slot` with `value` (leaving it empty when `value` is
  /// `nil`); `false`, and the slot untouched, when it already holds a value.
  private static func claim(_ slot: inout String?, with value: String?) -> Bool {
    guard slot == nil else { return false }
    slot = value
    return true
  }

  private func checkActivationSettings(
    _ metadata: [String: String], pairs: [YAMLNode.Pair], into diagnostics: inout DiagnosticCollector
  ) {
    func node(_ key: String) -> YAMLNode? { pairs.first { $0.key.scalarText == key }?.value }
    var activation = SkillActivationStyle.prompt
    if let value = metadata["activation"], let valueNode = node("activation") {
      if let style = SkillActivationStyle(rawValue: value) {
        activation = style
      } else {
        report(
          "metadata.activation is \"\(value)\"; use \"prompt\" or \"instructions\"", at: valueNode,
          into: &diagnostics)
      }
    }
    if let value = metadata[Self.disableModelInvocationKey], value != "true", value != "false",
      let valueNode = node(Self.disableModelInvocationKey)
    {
      report(
        "metadata.disable-model-invocation is \"\(value)\"; use \"true\" or \"false\"", at: valueNode,
        into: &diagnostics)
    }
    guard let value = metadata["allows-deactivation"], let valueNode = node("allows-deactivation") else {
      return
    }
    if value != "true" && value != "false" {
      report(
        "metadata.allows-deactivation is \"\(value)\"; use \"true\" or \"false\"", at: valueNode,
        into: &diagnostics)
    } else if activation == .prompt {
      let place = position(of: valueNode)
      diagnostics.questionable(
        "metadata.allows-deactivation only applies to skills with metadata.activation: instructions; "
          + "a prompt skill is never active, so remove it",
        line: place.line, column: place.column)
    }
  }

  private func readAllowedTools(_ node: YAMLNode?, into diagnostics: inout DiagnosticCollector) -> [String] {
    guard let node else { return [] }
    guard let text = node.stringValue else {
      report(
        "allowed-tools must be one string of space-separated tool names, not \(node.kindDescription)",
        at: node, into: &diagnostics)
      return []
    }
    return text.split(whereSeparator: \.isWhitespace).map(String.init)
  }

  // MARK: - Positions

  private func position(of node: YAMLNode) -> (line: Int, column: Int) {
    (node.line + firstLine - 1, node.column)
  }

  private func report(_ message: String, at node: YAMLNode, into diagnostics: inout DiagnosticCollector) {
    let place = position(of: node)
    diagnostics.error(message, line: place.line, column: place.column)
  }
}
