import ModelSession

extension FrontMatterReader {
  /// The `metadata` field: its string values, and every value as YAML reads it.
  struct Metadata {
    /// Each entry whose value is a scalar, as text.
    var strings: [String: String] = [:]
    /// Each entry, nested mappings and lists included (see ``SkillFrontMatter/metadataValues``).
    var values: [String: GeneratedContent] = [:]
  }

  /// Reads `metadata`. The Agent Skills format wants string keys to string
  /// values; a nested mapping or list is questionable and kept as a structured
  /// value, a number or boolean is read as its text with a warning.
  func readMetadata(_ node: YAMLNode?, into diagnostics: inout DiagnosticCollector) -> Metadata {
    guard let node else { return Metadata() }
    guard case .mapping(let pairs) = node.value else {
      questionable(
        "metadata must be a mapping of string keys to string values, not \(node.kindDescription); it is ignored",
        at: node, into: &diagnostics)
      return Metadata()
    }
    var metadata = Metadata()
    metadata.strings.reserveCapacity(pairs.count)
    for pair in pairs {
      guard let key = pair.key.scalarText else {
        questionable(
          "metadata keys must be strings, not \(pair.key.kindDescription); the entry is ignored",
          at: pair.key,
          into: &diagnostics)
        continue
      }
      guard metadata.values[key] == nil else {
        questionable("duplicate metadata key \"\(key)\"; keep one", at: pair.key, into: &diagnostics)
        continue
      }
      metadata.values[key] = Self.content(of: pair.value)
      guard let value = pair.value.scalarText else {
        // The reference validator accepts nested values (it reads them as text): a warning in both modes.
        let place = position(of: pair.value)
        diagnostics.warning(
          "metadata.\(key) is \(pair.value.kindDescription); the Agent Skills format wants a string "
            + "(it is kept as a structured value in metadataValues)",
          line: place.line, column: place.column)
        continue
      }
      metadata.strings[key] = value
      if pair.value.stringValue == nil {
        let place = position(of: pair.value)
        diagnostics.warning(
          "metadata.\(key) is \(pair.value.kindDescription) to YAML; it is read as the string \"\(value)\" "
            + "(quote it to make that explicit)",
          line: place.line, column: place.column)
      }
    }
    checkActivationSettings(metadata.strings, pairs: pairs, into: &diagnostics)
    return metadata
  }

  /// A YAML value as structured content: mappings in their key order, lists,
  /// and scalars as YAML 1.1 reads them (null, booleans, numbers, strings).
  /// Nesting is bounded by the YAML reader's depth limit.
  static func content(of node: YAMLNode) -> GeneratedContent {
    switch node.value {
    case .scalar(let text, let isPlain):
      guard isPlain, let kind = YAMLNode.plainScalarKind(text) else {
        return GeneratedContent(kind: .string(text))
      }
      switch kind {
      case "null": return GeneratedContent(kind: .null)
      case "boolean":
        let isTrue = ["true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"].contains(text)
        return GeneratedContent(kind: .bool(isTrue))
      default:
        guard let number = Double(text.replacingOccurrences(of: "_", with: "")) else {
          return GeneratedContent(kind: .string(text))
        }
        return GeneratedContent(kind: .number(number))
      }
    case .alias(let anchor):
      return GeneratedContent(kind: .string("*" + anchor))
    case .sequence(let items):
      return GeneratedContent(kind: .array(items.map(content(of:))))
    case .mapping(let pairs):
      var seen: Set<String> = []
      var ordered: [(String, GeneratedContent)] = []
      for pair in pairs {
        guard let key = pair.key.scalarText, seen.insert(key).inserted else { continue }
        ordered.append((key, content(of: pair.value)))
      }
      return GeneratedContent(orderedProperties: ordered)
    }
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
        questionable(
          "metadata.activation is \"\(value)\"; use \"prompt\" or \"instructions\" (read as prompt)",
          at: valueNode, into: &diagnostics)
      }
    }
    if let value = metadata[Self.disableModelInvocationKey], value != "true", value != "false",
      let valueNode = node(Self.disableModelInvocationKey)
    {
      questionable(
        "metadata.disable-model-invocation is \"\(value)\"; use \"true\" or \"false\"", at: valueNode,
        into: &diagnostics)
    }
    guard let value = metadata["allows-deactivation"], let valueNode = node("allows-deactivation") else {
      return
    }
    if value != "true" && value != "false" {
      questionable(
        "metadata.allows-deactivation is \"\(value)\"; use \"true\" or \"false\"", at: valueNode,
        into: &diagnostics)
    } else if activation == .prompt {
      questionable(
        "metadata.allows-deactivation only applies to skills with metadata.activation: instructions; "
          + "a prompt skill is never active, so remove it",
        at: valueNode, into: &diagnostics)
    }
  }
}
