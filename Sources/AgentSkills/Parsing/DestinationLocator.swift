import CMark

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the line and column where a link's destination is written in a
/// markdown body, in time linear in the body, however many links it holds
/// and however deeply they nest.
///
/// libcmark gives each link or image its span (start and end line, byte
/// columns) but numbers a paragraph's lines as if the reference definitions
/// that open it were not there, and its spans are off on lazy continuation
/// lines and for links that break across lines. So the locator counts the
/// definitions back in (once per paragraph), looks for `](destination` from
/// the end of the link's span backwards, and only when that fails searches
/// the lines of the paragraph, as written (a reference link is placed at its
/// `[`). Every byte it looks at is charged to a budget of a few passes over
/// the body; once the budget is spent, links are placed at the start of their
/// span without searching. Tens of thousands of links on one line, or images
/// nested 100,000 deep, cost no more than reading the body a few times.
struct DestinationLocator {
  private let bytes: [UInt8]
  private let lineStarts: [Int]
  /// Bytes the locator may still look at.
  private var budget: Int
  /// The paragraph whose leading definitions were counted last, and their count.
  private var countedBlock: OpaquePointer?
  private var definitionLines = 0
  /// The last column computed: counting the next one on the same line starts there.
  private var lastColumn = (line: 0, offset: 0, column: 1)

  init(bytes: [UInt8]) {
    self.bytes = bytes
    self.lineStarts = Self.startsOfLines(in: bytes)
    self.budget = 8 * bytes.count + 65_536
  }

  /// The body line and column (in characters) of `destination`, written in
  /// `node` (a link or image) inside the leaf block `block`.
  mutating func locate(
    _ destination: String, of node: OpaquePointer, in block: OpaquePointer?
  ) -> (line: Int, column: Int) {
    guard cmark_node_get_start_line(node) > 0 else {
      guard let block, cmark_node_get_start_line(block) > 0 else { return (1, 1) }
      let line = min(Int(cmark_node_get_start_line(block)), lineStarts.count)
      return (
        line,
        column(
          ofByte: lineStarts[line - 1] + max(0, Int(cmark_node_get_start_column(block)) - 1), onLine: line)
      )
    }
    let shift = definitionLines(openingParagraph: block)
    let startLine = min(max(1, Int(cmark_node_get_start_line(node)) + shift), lineStarts.count)
    let endLine = min(max(startLine, Int(cmark_node_get_end_line(node)) + shift), lineStarts.count)
    let spanStart = min(
      lineStarts[startLine - 1] + max(0, Int(cmark_node_get_start_column(node)) - 1), end(ofLine: startLine))
    let spanEnd = max(
      spanStart, min(lineStarts[endLine - 1] + Int(cmark_node_get_end_column(node)), end(ofLine: endLine)))
    let target = Array(destination.utf8)
    guard !target.isEmpty, spanStart < bytes.count else {
      return position(ofByte: spanStart, onLine: startLine)
    }
    // The destination closes the span: `[text](destination "title")`.
    for opener in ["](", "](<", "<"] {
      let needle = Array(opener.utf8) + target
      if let offset = lastOffset(of: needle, in: spanStart..<min(spanEnd + 4, end(ofLine: endLine))) {
        return position(ofByte: offset + opener.utf8.count, onLine: startLine)
      }
    }
    // A reference link (`[text][label]`, `[label]`) has no destination in its span:
    // it is placed at its `[`, unless the span is off and an inline destination is
    // written elsewhere in the paragraph.
    let opening = bytes[spanStart] == UInt8(ascii: "!") && spanStart + 1 < spanEnd ? spanStart + 1 : spanStart
    if let block, cmark_node_get_start_line(block) > 0, budget > 0, bytes[opening] != UInt8(ascii: "[") {
      let first = min(max(1, Int(cmark_node_get_start_line(block))), lineStarts.count)
      let last = min(max(first, Int(cmark_node_get_end_line(block)) + shift), lineStarts.count)
      for opener in ["](", "](<", "<"] {
        let needle = Array(opener.utf8) + target
        if let offset = firstOffset(of: needle, in: lineStarts[first - 1]..<end(ofLine: last)) {
          return position(ofByte: offset + opener.utf8.count, onLine: first)
        }
      }
    }
    return position(ofByte: opening, onLine: startLine)
  }

  /// How many lines of link reference definitions open `block`, counted once per block.
  private mutating func definitionLines(openingParagraph block: OpaquePointer?) -> Int {
    guard let block else { return 0 }
    if block == countedBlock { return definitionLines }
    countedBlock = block
    definitionLines = 0
    guard cmark_node_get_type(block) == CMARK_NODE_PARAGRAPH else { return 0 }
    var number = max(1, Int(cmark_node_get_start_line(block)))
    while number <= lineStarts.count, budget > 0 {
      let line = bytes[lineStarts[number - 1]..<end(ofLine: number)]
      budget -= line.count
      guard Self.isDefinition(line) else { break }
      definitionLines += 1
      number += 1
    }
    return definitionLines
  }

  /// The line and character column of the byte at `offset`, on `line` or a later one.
  private mutating func position(ofByte offset: Int, onLine line: Int) -> (line: Int, column: Int) {
    // The last line that starts at or before `offset`, by bisection.
    var low = line
    var high = lineStarts.count
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle - 1] <= offset { low = middle } else { high = middle - 1 }
    }
    return (low, column(ofByte: offset, onLine: low))
  }

  /// The column, in characters (Unicode scalars), of the byte at `offset` on `line`.
  private mutating func column(ofByte offset: Int, onLine line: Int) -> Int {
    let lineStart = lineStarts[line - 1]
    var from = (offset: lineStart, column: 1)
    if lastColumn.line == line && lastColumn.offset <= offset {
      from = (lastColumn.offset, lastColumn.column)
    }
    guard budget > 0 || from.offset == offset else {
      return offset - lineStart + 1  // Out of budget: the byte column.
    }
    budget -= offset - from.offset
    let column = bytes[from.offset..<offset].reduce(from.column) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    lastColumn = (line, offset, column)
    return column
  }

  /// Where `line` ends: the offset of its line feed, or the end of the body.
  private func end(ofLine line: Int) -> Int {
    line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
  }

  /// The last offset in `range` where `needle` starts and ends inside it; searched from the end.
  private mutating func lastOffset(of needle: [UInt8], in range: Range<Int>) -> Int? {
    guard needle.count <= range.count, budget > 0 else { return nil }
    var index = range.upperBound - needle.count
    defer { budget -= range.upperBound - needle.count - index }
    while index >= range.lowerBound {
      if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) {
        return index
      }
      index -= 1
    }
    return nil
  }

  /// The first offset in `range` where `needle` starts and ends inside it.
  private mutating func firstOffset(of needle: [UInt8], in range: Range<Int>) -> Int? {
    guard needle.count <= range.count, budget > 0 else { return nil }
    var index = range.lowerBound
    defer { budget -= index - range.lowerBound }
    while index <= range.upperBound - needle.count {
      if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) {
        return index
      }
      index += 1
    }
    return nil
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
}
