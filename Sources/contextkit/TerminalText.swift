/// Text from files (skills, records) made safe to print on a terminal.
///
/// A `SKILL.md` can hold raw escape sequences that would move the cursor,
/// rewrite the screen or set the window title when printed. Every control
/// character (C0, DEL, C1), and the bidirectional-override characters that make
/// text display in another order than it is, is shown escaped as `\u{1B}`;
/// tabs stay, and newlines stay in multi-line text.
enum TerminalText {
  /// `text` with every control character escaped; newlines kept when `keepingNewlines`.
  static func escaped(_ text: String, keepingNewlines: Bool = true) -> String {
    guard text.unicodeScalars.contains(where: { needsEscaping($0, keepingNewlines: keepingNewlines) }) else {
      return text
    }
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      guard needsEscaping(scalar, keepingNewlines: keepingNewlines) else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return result
  }

  /// Whether `scalar` is shown escaped.
  static func needsEscaping(_ scalar: Unicode.Scalar, keepingNewlines: Bool) -> Bool {
    switch scalar.value {
    case 0x09: false
    case 0x0A: !keepingNewlines
    case 0x00...0x1F, 0x7F...0x9F: true
    // Bidirectional embeddings, overrides and isolates, and the line and paragraph separators.
    case 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
    default: false
    }
  }
}
