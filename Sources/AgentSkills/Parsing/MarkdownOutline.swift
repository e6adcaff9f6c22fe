import CMark

/// The heading tree and link destinations of a markdown body, read with libcmark.
struct MarkdownOutline {
  /// A link or image destination and where it was written.
  struct Destination: Equatable {
    var destination: String
    var line: Int
    var column: Int
  }

  var sections: [SkillSection]
  var destinations: [Destination]

  /// Parses `body`, whose first line is line `firstLine` of the file.
  static func parse(_ body: String, firstLine: Int) -> MarkdownOutline {
    // libcmark's tree lives in this thread's arena, and only while the outline is read.
    MarkdownArena.withAllocator { allocator in parse(body, firstLine: firstLine, allocator: allocator) }
  }

  private static func parse(
    _ body: String, firstLine: Int, allocator: UnsafeMutablePointer<cmark_mem>
  ) -> MarkdownOutline {
    let bytes = Array(body.utf8)
    guard let parser = cmark_parser_new_with_mem(CMARK_OPT_DEFAULT, allocator) else {
      return MarkdownOutline(sections: [], destinations: [])
    }
    defer { cmark_parser_free(parser) }
    bytes.withUnsafeBufferPointer { buffer in
      buffer.baseAddress.map { cmark_parser_feed(parser, $0, buffer.count) }
    }
    let document = cmark_parser_finish(parser)
    guard let document else { return MarkdownOutline(sections: [], destinations: []) }
    defer { cmark_node_free(document) }
    guard let iterator = cmark_iter_new(document) else {
      return MarkdownOutline(sections: [], destinations: [])
    }
    defer { cmark_iter_free(iterator) }

    var locator: DestinationLocator?
    var leafBlock: OpaquePointer?
    var headings: [SkillSection] = []
    var destinations: [Destination] = []
    var title: String?
    while true {
      let event = cmark_iter_next(iterator)
      if event == CMARK_EVENT_DONE { break }
      guard let node = cmark_iter_get_node(iterator) else { continue }
      let type = cmark_node_get_type(node)
      if event == CMARK_EVENT_ENTER && type.rawValue < CMARK_NODE_FIRST_INLINE.rawValue {
        // Inline nodes only live in leaf blocks, each entered before its inlines.
        leafBlock = node
      }
      switch (type, event) {
      case (CMARK_NODE_HEADING, CMARK_EVENT_ENTER):
        title = ""
      case (CMARK_NODE_HEADING, CMARK_EVENT_EXIT):
        let line = Int(cmark_node_get_start_line(node)) + firstLine - 1
        let level = Int(cmark_node_get_heading_level(node))
        let text = (title ?? "").trimmingWhitespace()
        headings.append(SkillSection(level: level, title: text, line: line))
        title = nil
      case (CMARK_NODE_TEXT, _), (CMARK_NODE_CODE, _):
        if title != nil, let literal = cmark_node_get_literal(node) {
          title?.append(String(cString: literal))
        }
      case (CMARK_NODE_SOFTBREAK, _), (CMARK_NODE_LINEBREAK, _):
        if title != nil { title?.append(" ") }
      case (CMARK_NODE_LINK, CMARK_EVENT_ENTER), (CMARK_NODE_IMAGE, CMARK_EVENT_ENTER):
        guard let url = cmark_node_get_url(node) else { break }
        let destination = String(cString: url)
        if locator == nil { locator = DestinationLocator(bytes: bytes) }
        let (line, column) = locator?.locate(destination, of: node, in: leafBlock) ?? (1, 1)
        destinations.append(Destination(destination: destination, line: line + firstLine - 1, column: column))
      default:
        break
      }
    }
    return MarkdownOutline(sections: nest(headings), destinations: destinations)
  }

  /// Nests a flat list of headings into a tree by level.
  static func nest(_ headings: [SkillSection]) -> [SkillSection] {
    var result: [SkillSection] = []
    var index = 0
    while index < headings.count {
      result.append(subtree(headings, from: &index))
    }
    return result
  }

  private static func subtree(_ headings: [SkillSection], from index: inout Int) -> SkillSection {
    var section = headings[index]
    index += 1
    while index < headings.count && headings[index].level > section.level {
      section.children.append(subtree(headings, from: &index))
    }
    return section
  }
}
