extension JSONParser {
  /// Parses a string whose opening quote is at `position`.
  ///
  /// Returns the string and whether its closing quote was found. Without the
  /// closing quote (a truncated input) the string holds the text read so far,
  /// less any escape sequence cut in the middle.
  mutating func parseString() throws(JSONParsingError) -> (String, isTerminated: Bool) {
    position += 1
    let start = position
    // Fast path: no escapes.
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let string = makeString(start..<position)
        position += 1
        return (string, true)
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw controlCharacterError(byte) }
      position += 1
    }
    if position >= bytes.count { return (makeString(start..<position), false) }
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
    return try parseEscapedRemainder()
  }

  /// Continues a string at the backslash at `position`, collecting bytes in `scratch`.
  private mutating func parseEscapedRemainder() throws(JSONParsingError) -> (String, isTerminated: Bool) {
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        return (String(decoding: scratch, as: UTF8.self), true)
      }
      if byte == UInt8(ascii: "\\") {
        guard try parseEscape() else { break }
        continue
      }
      if byte < 0x20 { throw controlCharacterError(byte) }
      // Copy the run of plain bytes up to the next quote, backslash or control character.
      let runStart = position
      position += 1
      while position < bytes.count {
        let next = bytes[position]
        if next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") || next < 0x20 { break }
        position += 1
      }
      scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
    }
    return (String(decoding: scratch, as: UTF8.self), false)
  }

  /// Decodes the escape sequence at `position` into `scratch`. Returns false
  /// when the input ends inside it (only possible in partial mode).
  private mutating func parseEscape() throws(JSONParsingError) -> Bool {
    let escapeStart = position
    guard position + 1 < bytes.count else { return try truncated(at: escapeStart) }
    let letter = bytes[position + 1]
    let replacement: UInt8
    switch letter {
    case UInt8(ascii: "\""): replacement = UInt8(ascii: "\"")
    case UInt8(ascii: "\\"): replacement = UInt8(ascii: "\\")
    case UInt8(ascii: "/"): replacement = UInt8(ascii: "/")
    case UInt8(ascii: "b"): replacement = 0x08
    case UInt8(ascii: "f"): replacement = 0x0C
    case UInt8(ascii: "n"): replacement = UInt8(ascii: "\n")
    case UInt8(ascii: "r"): replacement = UInt8(ascii: "\r")
    case UInt8(ascii: "t"): replacement = UInt8(ascii: "\t")
    case UInt8(ascii: "u"):
      return try parseUnicodeEscape()
    default:
      throw error(
        "invalid escape sequence '\\\(describeByte(at: position + 1).trimmingQuotes)'", at: escapeStart)
    }
    scratch.append(replacement)
    position += 2
    return true
  }

  /// Decodes `\uXXXX` (and the low half of a surrogate pair after it).
  private mutating func parseUnicodeEscape() throws(JSONParsingError) -> Bool {
    let escapeStart = position
    guard let first = try readHexQuad(at: position + 2) else { return try truncated(at: escapeStart) }
    position += 6
    switch first {
    case 0xD800...0xDBFF:
      // A high surrogate must be followed by `\u` and a low surrogate.
      let lowStart = position
      let isFollowedByEscape =
        (lowStart >= bytes.count || bytes[lowStart] == UInt8(ascii: "\\"))
        && (lowStart + 1 >= bytes.count || bytes[lowStart + 1] == UInt8(ascii: "u"))
      guard isFollowedByEscape else {
        throw error("unpaired high surrogate \\u\(hex(first)) in string", at: escapeStart)
      }
      guard lowStart + 1 < bytes.count else { return try truncated(at: escapeStart) }
      guard let second = try readHexQuad(at: lowStart + 2) else { return try truncated(at: escapeStart) }
      guard (0xDC00...0xDFFF).contains(second) else {
        throw error("unpaired high surrogate \\u\(hex(first)) in string", at: escapeStart)
      }
      position += 6
      appendUTF8(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
    case 0xDC00...0xDFFF:
      throw error("unpaired low surrogate \\u\(hex(first)) in string", at: escapeStart)
    default:
      appendUTF8(first)
    }
    return true
  }

  /// Reads four hex digits at `offset`; nil when the input ends first.
  private func readHexQuad(at offset: Int) throws(JSONParsingError) -> UInt32? {
    var value: UInt32 = 0
    for index in offset..<(offset + 4) {
      guard index < bytes.count else { return nil }
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default:
        throw error("invalid \\u escape: expected 4 hex digits, found \(describeByte(at: index))", at: index)
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// Handles the end of input inside an escape: fine in partial mode, an error otherwise.
  private mutating func truncated(at escapeStart: Int) throws(JSONParsingError) -> Bool {
    guard isPartial else { throw error("unterminated escape sequence in string", at: escapeStart) }
    position = bytes.count
    return false
  }

  private mutating func appendUTF8(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
      scratch.append(UInt8(scalar))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | scalar >> 6))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | scalar >> 12))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    default:
      scratch.append(UInt8(0xF0 | scalar >> 18))
      scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  private func controlCharacterError(_ byte: UInt8) -> JSONParsingError {
    error("control character \(describeByte(at: position)) in string must be escaped", at: position)
  }

  func makeString(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }
}

extension String {
  /// The text without the single quotes that `describeByte` puts around a character.
  fileprivate var trimmingQuotes: Substring {
    guard count >= 3, first == "'", last == "'" else { return Substring(self) }
    return dropFirst().dropLast()
  }
}
