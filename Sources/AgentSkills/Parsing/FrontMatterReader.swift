/// Checks parsed front matter against the Agent Skills rules and ContextKit's
/// `metadata` settings, reporting every problem with its position in the file.
///
/// What the Agent Skills client guide's lenient loaders accept is *questionable*
/// here: a warning in lenient mode, where the skill loads anyway (a name that
/// breaks the naming rules or differs from its folder, a long description,
/// nested `metadata`, an `allowed-tools` list, unknown keys), and an error in
/// strict mode. Only what no loader can use is an error in both modes: front
/// matter that is not a mapping, and a missing or empty description.
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

  /// The front matter, or `nil` when it cannot be used at all (not a mapping,
  /// no description); questionable findings are reported and the skill kept.
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
    let fields = readFields(pairs, into: &diagnostics)
    if diagnostics.mode == .strict { reportFlowStyle(in: pairs, into: &diagnostics) }
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
      fields[Self.disableModelInvocationKey], metadata: metadata.strings, into: &diagnostics)
    guard let name, let description else { return nil }
    return SkillFrontMatter(
      name: name, description: description, license: license, compatibility: compatibility,
      metadata: metadata.strings, metadataValues: metadata.values, allowedTools: allowedTools,
      allowsModelInvocation: !disablesModelInvocation)
  }

  /// The top-level keys and their values; the first of a repeated key counts.
  private func readFields(
    _ pairs: [YAMLNode.Pair], into diagnostics: inout DiagnosticCollector
  ) -> [String: YAMLNode] {
    var fields: [String: YAMLNode] = [:]
    for pair in pairs {
      guard let key = pair.key.scalarText else {
        questionable(
          "front matter keys must be plain words, not \(pair.key.kindDescription)", at: pair.key,
          into: &diagnostics)
        continue
      }
      if let earlier = fields[key] {
        questionable(
          "duplicate key \"\(key)\" (first given on line \(earlier.line + firstLine - 1)); keep one",
          at: pair.key, into: &diagnostics)
        continue
      }
      fields[key] = pair.value
      if key == Self.disableModelInvocationKey {
        questionable(
          "disable-model-invocation is not an Agent Skills field, so other validators reject it; "
            + "write it under metadata (metadata: disable-model-invocation: \"true\") to keep the skill valid "
            + "everywhere",
          at: pair.key, into: &diagnostics)
      } else if !Self.knownKeys.contains(key) {
        questionable(
          "unknown front matter key \"\(key)\"; the known keys are "
            + "name, description, license, compatibility, metadata and allowed-tools "
            + "(put custom settings under metadata)",
          at: pair.key, into: &diagnostics)
      }
    }
    return fields
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
      questionable(
        "disable-model-invocation must be true or false, not \(node.kindDescription)", at: node,
        into: &diagnostics)
      return fromMetadata ?? false
    }
    if let fromMetadata, fromMetadata != value {
      questionable(
        "disable-model-invocation is \(value) here but \"\(fromMetadata)\" under metadata; keep one",
        at: node, into: &diagnostics)
    }
    return value || fromMetadata == true
  }

  /// Strict mode only: a mapping or list in flow style (`{a: b}`, `[a, b]`)
  /// under a key, which strict YAML readers (the reference validator's) refuse.
  private func reportFlowStyle(in pairs: [YAMLNode.Pair], into diagnostics: inout DiagnosticCollector) {
    var pending = pairs.map(\.value)
    while let node = pending.popLast() {
      if node.isFlow {
        report(
          "\(node.kindDescription) in flow style (\(node.isMappingNode ? "{...}" : "[...]")): "
            + "strict YAML readers refuse it; write one item per line",
          at: node, into: &diagnostics)
        continue
      }
      switch node.value {
      case .mapping(let children): pending += children.map(\.value)
      case .sequence(let items): pending += items
      default: break
      }
    }
  }

  // MARK: - Name

  /// The name as written, even when it breaks the naming rules (questionable);
  /// the folder's name when the front matter gives none that can be used.
  private func readName(_ node: YAMLNode?, into diagnostics: inout DiagnosticCollector) -> String? {
    guard let node else {
      diagnostics.questionable(
        "the front matter has no name; add a line \"name: \(folderName)\" (the folder's name is used)",
        line: 1, column: 1)
      return folderNameIfUsable(into: &diagnostics)
    }
    guard let name = node.scalarText, !name.allSatisfy(\.isWhitespace) else {
      let what = node.scalarText == nil ? node.kindDescription : "empty"
      questionable(
        "name must be a string, not \(what); the folder's name \"\(folderName)\" is used", at: node,
        into: &diagnostics)
      return folderNameIfUsable(into: &diagnostics)
    }
    if node.stringValue == nil {
      questionable(
        "name is \(node.kindDescription) to YAML; it is read as the string \"\(name)\" (quote it: name: \"\(name)\")",
        at: node, into: &diagnostics)
    }
    guard SkillName.isUsable(name) else {
      questionable(
        "name \"\(name)\" holds a control character, so it cannot name a skill; "
          + "the folder's name \"\(folderName)\" is used",
        at: node, into: &diagnostics)
      return folderNameIfUsable(into: &diagnostics)
    }
    for problem in namingProblems(name) { questionable(problem, at: node, into: &diagnostics) }
    return name
  }

  /// What the Agent Skills naming rules say against `name`, folder included:
  /// every rule it breaks, each its own finding.
  private func namingProblems(_ name: String) -> [String] {
    var problems: [String] = []
    let length = name.unicodeScalars.count
    if length > Self.maximumNameLength {
      problems.append("name is \(length) characters; the limit is \(Self.maximumNameLength)")
    }
    // Each rule on its own, as the reference validator reports them: capitals do not hide a space.
    if name.lowercased() != name {
      problems.append("name \"\(name)\" must be lowercase")
    }
    if let bad = name.lowercased().unicodeScalars.first(where: { !Self.isNameCharacter($0) }) {
      problems.append("name \"\(name)\" may only contain a-z, 0-9 and \"-\"; \"\(bad)\" is not allowed")
    }
    if name.hasPrefix("-") || name.hasSuffix("-") {
      problems.append("name \"\(name)\" must not begin or end with \"-\"")
    }
    if name.contains("--") {
      problems.append("name \"\(name)\" must not contain \"--\"")
    }
    if name != folderName {
      problems.append(
        "name \"\(name)\" must match its folder's name \"\(folderName)\"; rename the folder or the skill")
    }
    return problems
  }

  private func folderNameIfUsable(into diagnostics: inout DiagnosticCollector) -> String? {
    guard SkillName.isUsable(folderName) else {
      diagnostics.error(
        "the folder's name cannot name a skill either (it holds a control character); give the skill a name",
        line: 1, column: 1)
      return nil
    }
    return folderName
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

  // MARK: - Text fields

  /// A string field. Missing or empty is an error for a required field (the
  /// description) and nothing or a warning otherwise; a number or boolean is
  /// read as its text, and a value over `limit` is kept, both questionable.
  private func readText(
    _ key: String, _ node: YAMLNode?, required: Bool, limit: Int?, into diagnostics: inout DiagnosticCollector
  ) -> String? {
    guard let node else {
      if required {
        diagnostics.error("the front matter has no \(key); add a line \"\(key): ...\"", line: 1, column: 1)
      }
      return nil
    }
    guard let raw = node.scalarText else {
      let message = "\(key) must be a string, not \(node.kindDescription)"
      if required {
        report(message, at: node, into: &diagnostics)
      } else {
        questionable(message + "; it is ignored", at: node, into: &diagnostics)
      }
      return nil
    }
    // Block scalars (`description: >`) end with a newline.
    let text = raw.trimmingWhitespace()
    if text.isEmpty {
      if required {
        report("\(key) is empty", at: node, into: &diagnostics)
      } else {
        questionable("\(key) is empty; remove it or give a value", at: node, into: &diagnostics)
      }
      return nil
    }
    if node.stringValue == nil {
      questionable(
        "\(key) must be a string, but YAML reads \(node.kindDescription); it is read as the text \"\(text)\" "
          + "(quote it: \(key): \"\(text)\")",
        at: node, into: &diagnostics)
    }
    let length = text.unicodeScalars.count
    if let limit, length > limit {
      questionable(
        "\(key) is \(CountFormatting.grouped(length)) characters; the limit is \(CountFormatting.grouped(limit))",
        at: node, into: &diagnostics)
    }
    return text
  }

  /// `allowed-tools`: one space-separated string, or (questionable) a YAML list of names.
  private func readAllowedTools(_ node: YAMLNode?, into diagnostics: inout DiagnosticCollector) -> [String] {
    guard let node else { return [] }
    if let text = node.scalarText {
      return text.split(whereSeparator: \.isWhitespace).map(String.init)
    }
    guard case .sequence(let items) = node.value else {
      questionable(
        "allowed-tools must be one string of space-separated tool names, not \(node.kindDescription); "
          + "it is ignored",
        at: node, into: &diagnostics)
      return []
    }
    let tools = items.compactMap(\.scalarText).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    // The reference validator does not check allowed-tools: a warning in both modes.
    let place = position(of: node)
    diagnostics.warning(
      "allowed-tools is a list; the Agent Skills format wants one string of space-separated names "
        + "(allowed-tools: \(tools.joined(separator: " ")))",
      line: place.line, column: place.column)
    return tools
  }

  // MARK: - Positions

  func position(of node: YAMLNode) -> (line: Int, column: Int) {
    (node.line + firstLine - 1, node.column)
  }

  /// An error at `node`: the skill cannot load.
  func report(_ message: String, at node: YAMLNode, into diagnostics: inout DiagnosticCollector) {
    let place = position(of: node)
    diagnostics.error(message, line: place.line, column: place.column)
  }

  /// A warning in lenient mode (the skill loads), an error in strict mode.
  func questionable(_ message: String, at node: YAMLNode, into diagnostics: inout DiagnosticCollector) {
    let place = position(of: node)
    diagnostics.questionable(message, line: place.line, column: place.column)
  }
}
