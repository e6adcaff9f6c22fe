extension JSONParser {
  /// A number read from the input.
  struct ParsedNumber {
    /// The number, or nil when a truncated input holds no valid prefix (`-`).
    var value: GeneratedContent?
    /// False when the input ended inside the number (partial mode), so more digits may follow.
    var isComplete: Bool
  }

  /// Parses a number starting at `position` (a `-` or a digit).
  ///
  /// A number that does not fit a `Double` (such as `1e400`) is an error:
  /// accepting it would turn it into infinity, which JSON cannot express.
  /// Numbers too small for a `Double` (`1e-400`) become zero.
  ///
  /// In partial mode, when the input ends inside the number, the result is the
  /// longest valid prefix (`12.` reads as `12`, `-` as nothing), marked incomplete.
  mutating func parseNumber() throws(JSONParsingError) -> ParsedNumber {
    let start = position
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    guard position < bytes.count else { return try truncatedNumber(start, validEnd: nil, "'-'") }
    let firstDigit = bytes[position]
    if firstDigit == UInt8(ascii: "0") {
      position += 1
      if position < bytes.count, isDigit(bytes[position]) {
        throw error("leading zeros are not allowed in numbers", at: start)
      }
    } else if isDigit(firstDigit) {
      skipDigits()
    } else {
      throw error("expected a digit after '-', found \(describeByte(at: position))", at: position)
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      let validEnd = position
      position += 1
      guard position < bytes.count else { return try truncatedNumber(start, validEnd: validEnd, "'.'") }
      guard isDigit(bytes[position]) else {
        throw error("expected a digit after '.', found \(describeByte(at: position))", at: position)
      }
      skipDigits()
    }
    let hasExponent = position < bytes.count && bytes[position] | 0x20 == UInt8(ascii: "e")
    if hasExponent {
      let validEnd = position
      position += 1
      if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard position < bytes.count else { return try truncatedNumber(start, validEnd: validEnd, "exponent") }
      guard isDigit(bytes[position]) else {
        throw error("expected a digit in exponent, found \(describeByte(at: position))", at: position)
      }
      skipDigits()
    }
    guard isPartial, position >= bytes.count else {
      let value = try numberValue(start..<position)
      return ParsedNumber(value: GeneratedContent(storage: .number(value)), isComplete: true)
    }
    return try truncatedNumber(start..<position, mayStillShrink: !hasExponent)
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  private mutating func skipDigits() {
    while position < bytes.count, isDigit(bytes[position]) { position += 1 }
  }

  /// The input ended inside a number, after `what`.
  private func truncatedNumber(
    _ start: Int, validEnd: Int?, _ what: String
  ) throws(JSONParsingError) -> ParsedNumber {
    guard isPartial else { throw error("expected a digit after \(what), found end of input", at: position) }
    guard let validEnd else { return ParsedNumber(value: nil, isComplete: false) }
    return try truncatedNumber(start..<validEnd, mayStillShrink: true)
  }

  /// The value of a number that the end of a partial input cut, incomplete.
  ///
  /// Out of range is an error once the exponent has started (more digits only
  /// make it larger); before that, the number is left out, since a negative
  /// exponent may still follow (`1` and 400 zeros, then `e-300`).
  private func truncatedNumber(
    _ validRange: Range<Int>, mayStillShrink: Bool
  ) throws(JSONParsingError) -> ParsedNumber {
    let value: Double
    do {
      value = try numberValue(validRange)
    } catch {
      if mayStillShrink { return ParsedNumber(value: nil, isComplete: false) }
      throw error
    }
    return ParsedNumber(
      value: GeneratedContent(storage: .number(value), isComplete: false), isComplete: false)
  }

  /// Converts the valid number text in `range` to a correctly rounded `Double`.
  func numberValue(_ range: Range<Int>) throws(JSONParsingError) -> Double {
    if let exact = exactSmallNumber(range) { return exact }
    let text = makeString(range)
    guard let value = Double(text), value.isFinite else {
      throw error("number \(text) is out of range for a 64-bit floating-point value", at: range.lowerBound)
    }
    return value
  }

  /// The value of numbers with at most 15 significant digits and a small
  /// decimal exponent: one exact integer, one exact power of ten and one
  /// correctly rounded multiplication or division (Clinger's fast path).
  private func exactSmallNumber(_ range: Range<Int>) -> Double? {
    var index = range.lowerBound
    let isNegative = bytes[index] == UInt8(ascii: "-")
    if isNegative { index += 1 }
    var mantissa: UInt64 = 0
    var significantDigits = 0
    var exponent = 0
    var isFraction = false
    while index < range.upperBound {
      let byte = bytes[index]
      if byte == UInt8(ascii: ".") {
        isFraction = true
      } else if isDigit(byte) {
        if mantissa != 0 || byte != UInt8(ascii: "0") { significantDigits += 1 }
        guard significantDigits <= 15 else { return nil }
        mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
        if isFraction { exponent -= 1 }
      } else {
        break
      }
      index += 1
    }
    if index < range.upperBound {
      // The exponent: `e`, an optional sign and digits (already validated).
      index += 1
      var exponentIsNegative = false
      if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
        exponentIsNegative = bytes[index] == UInt8(ascii: "-")
        index += 1
      }
      var explicit = 0
      while index < range.upperBound {
        explicit = explicit * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
        guard explicit < 1000 else { return nil }
        index += 1
      }
      exponent += exponentIsNegative ? -explicit : explicit
    }
    var value = Double(mantissa)
    if mantissa != 0 {
      guard exponent >= -22, exponent <= 22 else { return nil }
      let scale = Self.powersOfTen[abs(exponent)]
      value = exponent < 0 ? value / scale : value * scale
    }
    return isNegative ? -value : value
  }

  /// 10^0 through 10^22: the powers of ten that a `Double` holds exactly.
  private static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// Parses `true`, `false` or `null` at `position`. Returns nil when a
  /// partial input ends inside the literal.
  mutating func parseLiteral() throws(JSONParsingError) -> GeneratedContent? {
    let start = position
    let (word, value): (StaticString, GeneratedContent.Storage) =
      switch bytes[position] {
      case UInt8(ascii: "t"): ("true", .bool(true))
      case UInt8(ascii: "f"): ("false", .bool(false))
      default: ("null", .null)
      }
    for offset in 0..<word.utf8CodeUnitCount {
      guard start + offset < bytes.count else {
        if isPartial { return nil }
        throw error("unexpected end of input in literal '\(word)'", at: start)
      }
      guard bytes[start + offset] == word.utf8Start[offset] else {
        throw error("invalid literal, expected '\(word)'", at: start)
      }
    }
    position += word.utf8CodeUnitCount
    return GeneratedContent(storage: value)
  }
}
