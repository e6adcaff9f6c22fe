import CMark

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    var lineStarts: [Int]?
    var headings: [SkillSection] = []
    var destinations: [Destination] = []
    var title: String?
    while true {
      let event = cmark_iter_next(iterator)
      if event == CMARK_EVENT_DONE { break }
      guard let node = cmark_iter_get_node(iterator) else { continue }
      let type = cmark_node_get_type(node)
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
        if lineStarts == nil { lineStarts = startsOfLines(in: bytes) }
        let (line, column) = locate(
          destination, text: plainText(of: node), of: node, in: bytes, lineStarts: lineStarts ?? [0])
        destinations.append(Destination(destination: destination, line: line + firstLine - 1, column: column))
      default:
        break
      }
    }
    return MarkdownOutline(sections: nest(headings), destinations: destinations)
  }

  /// The body line and column of a link's destination. libcmark gives inline
  /// nodes no position, so the link is looked for in the lines of the nearest
  /// block that has one: an inline destination `](destination` first, else, for
  /// a reference link (`[text][label]`, `[label]`), the link's bracketed text on
  /// a line that is not a definition, so that a diagnostic points at the link
  /// and not at the `[label]: destination` line.
  private static func locate(
    _ destination: String, text: String, of node: OpaquePointer, in bytes: [UInt8], lineStarts: [Int]
  ) -> (line: Int, column: Int) {
    var block: OpaquePointer? = node
    while let current = block, cmark_node_get_start_line(current) == 0 {
      block = cmark_node_parent(current)
    }
    guard let block else { return (1, 1) }
    func line(_ number: Int) -> ArraySlice<UInt8> {
      let lineStart = lineStarts[number - 1]
      return bytes[lineStart..<(number < lineStarts.count ? lineStarts[number] : bytes.count)]
    }
    // libcmark numbers an inline node's lines as if the reference definitions
    // that open its paragraph were not there; count them back in.
    var shift = 0
    if cmark_node_get_type(block).rawValue >= CMARK_NODE_FIRST_INLINE.rawValue {
      var container = cmark_node_parent(block)
      while let current = container, cmark_node_get_type(current).rawValue >= CMARK_NODE_FIRST_INLINE.rawValue
      {
        container = cmark_node_parent(current)
      }
      if let container {
        var number = max(1, Int(cmark_node_get_start_line(container)))
        while number <= lineStarts.count && isDefinition(line(number)) {
          shift += 1
          number += 1
        }
      }
    }
    let start = min(max(1, Int(cmark_node_get_start_line(block)) + shift), lineStarts.count)
    let end = min(max(start, Int(cmark_node_get_end_line(block)) + shift), lineStarts.count)
    let fallback = (start, max(1, Int(cmark_node_get_start_column(block))))
    guard start <= end else { return fallback }
    func column(of offset: Int, onLine number: Int) -> Int {
      // Columns count characters (Unicode scalars), not bytes.
      bytes[lineStarts[number - 1]..<offset].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } + 1
    }
    let target = Array(destination.utf8)
    for opener in ["](", "](<", "<"] where !target.isEmpty {
      let needle = Array(opener.utf8) + target
      for number in start...end {
        if let offset = firstOffset(of: needle, in: line(number)) {
          return (number, column(of: offset + opener.utf8.count, onLine: number))
        }
      }
    }
    let bracketed = Array("[\(text)]".utf8)
    for number in start...end where !isDefinition(line(number)) {
      if let offset = firstOffset(of: bracketed, in: line(number)) {
        return (number, column(of: offset, onLine: number))
      }
    }
    return fallback
  }

  /// Whether a line is a link reference definition (`[label]: destination`).
  private static func isDefinition(_ line: ArraySlice<UInt8>) -> Bool {
    let trimmed = line.drop { $0 == UInt8(ascii: " ") }
    guard trimmed.first == UInt8(ascii: "["), let close = trimmed.firstIndex(of: UInt8(ascii: "]")) else {
      return false
    }
    return trimmed.index(after: close) < trimmed.endIndex
      && trimmed[trimmed.index(after: close)] == UInt8(ascii: ":")
  }

  /// The text inside a link, as written (its text and code pieces joined).
  private static func plainText(of node: OpaquePointer) -> String {
    var text = ""
    var child = cmark_node_first_child(node)
    while let current = child {
      switch cmark_node_get_type(current) {
      case CMARK_NODE_TEXT, CMARK_NODE_CODE:
        if let literal = cmark_node_get_literal(current) { text += String(cString: literal) }
      default:
        text += plainText(of: current)
      }
      child = cmark_node_next(current)
    }
    return text
  }

  /// The byte offset at which each line of `text` starts.
  private static func startsOfLines(in text: [UInt8]) -> [Int] {
    var starts = [0]
    text.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      // memchr scans a word at a time; a byte loop costs a noticeable share of loading a library.
      while offset < buffer.count,
        let found = memchr(base + offset, Int32(UInt8(ascii: "\n")), buffer.count - offset)
      {
        offset = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
        starts.append(offset)
      }
    }
    return starts
  }

  private static func firstOffset(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
    guard let first = needle.first, haystack.count >= needle.count else { return nil }
    var index = haystack.startIndex
    let last = haystack.endIndex - needle.count
    while index <= last {
      if haystack[index] == first && haystack[index..<(index + needle.count)].elementsEqual(needle) {
        return index
      }
      index += 1
    }
    return nil
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
