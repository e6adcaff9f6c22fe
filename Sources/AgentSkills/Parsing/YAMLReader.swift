import CYAML

/// Reads YAML text into ``YAMLNode`` values with libyaml's event parser.
enum YAMLReader {
  /// A syntax error reported by libyaml, with its 1-based position.
  struct SyntaxError: Error, Equatable {
    var message: String
    var line: Int
    var column: Int
    /// What libyaml was reading when it failed, such as "while scanning a quoted scalar".
    var context: String?
    /// The 1-based line where that context began.
    var contextLine: Int = 0

    /// The message with its context, numbering lines from `firstLine`.
    func describe(firstLine: Int) -> String {
      guard let context else { return message }
      return "\(message) (\(context) that begins on line \(contextLine + firstLine - 1))"
    }
  }

  /// Deeper nesting than this is refused, so hostile input cannot exhaust the stack.
  static let maximumDepth = 64

  /// Parses the first document of `text`; `nil` when the text holds no document.
  static func parse(_ text: String) -> Result<YAMLNode?, SyntaxError> {
    let bytes = Array(text.utf8)
    if bytes.isEmpty { return .success(nil) }
    let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    defer { parser.deallocate() }
    guard yaml_parser_initialize(parser) == 1 else {
      return .failure(
        SyntaxError(message: "the YAML parser could not start (out of memory)", line: 1, column: 1))
    }
    defer { yaml_parser_delete(parser) }
    return bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return .success(nil) }
      yaml_parser_set_input_string(parser, base, buffer.count)
      var builder = Builder()
      var event = yaml_event_t()
      while true {
        guard yaml_parser_parse(parser, &event) == 1 else {
          return .failure(syntaxError(from: parser.pointee))
        }
        let outcome = builder.consume(event)
        let type = event.type
        yaml_event_delete(&event)
        if case .failure(let error) = outcome { return .failure(error) }
        if type == YAML_STREAM_END_EVENT || builder.isFinished { return .success(builder.root) }
      }
    }
  }

  private static func syntaxError(from parser: yaml_parser_t) -> SyntaxError {
    let problem = parser.problem.map { String(cString: $0) } ?? "the YAML cannot be read"
    return SyntaxError(
      message: "YAML syntax error: \(problem)", line: Int(parser.problem_mark.line) + 1,
      column: Int(parser.problem_mark.column) + 1, context: parser.context.map { String(cString: $0) },
      contextLine: Int(parser.context_mark.line) + 1)
  }

  /// Turns the event stream into a tree.
  ///
  /// Open containers sit on a stack and are appended to in place
  /// (`stack[top].items.append`), so each array has one owner and grows in
  /// amortised constant time: building a document is linear in its size.
  private struct Builder {
    private struct OpenContainer {
      var isMapping: Bool
      var pairs: [YAMLNode.Pair] = []
      var items: [YAMLNode] = []
      var pendingKey: YAMLNode?
      var line: Int
      var column: Int
      var isFlow: Bool
    }

    private var stack: [OpenContainer] = []
    private(set) var root: YAMLNode?
    private(set) var isFinished = false

    mutating func consume(_ event: yaml_event_t) -> Result<Void, SyntaxError> {
      let line = Int(event.start_mark.line) + 1
      let column = Int(event.start_mark.column) + 1
      switch event.type {
      case YAML_DOCUMENT_END_EVENT:
        isFinished = true
      case YAML_SCALAR_EVENT:
        let scalar = event.data.scalar
        let text = Self.string(scalar.value, length: scalar.length)
        let isPlain = scalar.style == YAML_PLAIN_SCALAR_STYLE && scalar.tag == nil
        add(YAMLNode(value: .scalar(text, isPlain: isPlain), line: line, column: column))
      case YAML_ALIAS_EVENT:
        let anchor = event.data.alias.anchor.map { String(cString: $0) } ?? ""
        add(YAMLNode(value: .alias(anchor), line: line, column: column))
      case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT:
        guard stack.count < YAMLReader.maximumDepth else {
          return .failure(
            SyntaxError(
              message: "YAML is nested more than \(YAMLReader.maximumDepth) levels deep", line: line,
              column: column))
        }
        let isMapping = event.type == YAML_MAPPING_START_EVENT
        let isFlow =
          isMapping
          ? event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
          : event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
        stack.append(OpenContainer(isMapping: isMapping, line: line, column: column, isFlow: isFlow))
      case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
        guard let container = stack.popLast() else { break }
        add(
          YAMLNode(
            value: container.isMapping ? .mapping(container.pairs) : .sequence(container.items),
            line: container.line, column: container.column, isFlow: container.isFlow))
      default:
        break
      }
      return .success(())
    }

    private mutating func add(_ node: YAMLNode) {
      let top = stack.count - 1
      guard top >= 0 else {
        root = node
        return
      }
      guard stack[top].isMapping else {
        stack[top].items.append(node)
        return
      }
      if let key = stack[top].pendingKey {
        stack[top].pairs.append(YAMLNode.Pair(key: key, value: node))
        stack[top].pendingKey = nil
      } else {
        stack[top].pendingKey = node
      }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> String {
      guard let pointer else { return "" }
      return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
    }
  }
}
