/// The Agent Skills client guide's fallback for front matter that YAML cannot
/// read: a `key: value` line whose value holds `: ` (`description: Use when:
/// the user asks`) is read as if its value were quoted. A plain value that goes
/// on over more-indented lines, with `: ` on any of them, is quoted across
/// those lines: a double-quoted value folds its lines with a space, as the
/// plain value would, so the text is the same.
///
/// Only used after a parse fails, so front matter that parses costs nothing
/// more. Each line keeps its number, so positions stay right.
enum UnquotedColonFallback {
  /// The front matter with each such value double-quoted, and the 1-based
  /// lines (of `yaml`) where a quoted value starts; `nil` when no line qualifies.
  static func quotingColonValues(in yaml: String) -> (text: String, lines: [Int])? {
    var changed: [Int] = []
    var lines: [Substring] = yaml.split(separator: "\n", omittingEmptySubsequences: false)
    var index = lines.startIndex
    while index < lines.endIndex {
      guard let entry = PlainEntry(lines[index]) else {
        index += 1
        continue
      }
      let last = lastContinuation(of: entry, at: index, in: lines)
      if last > index {
        let values = [entry.value] + lines[(index + 1)...last].map { $0.trimmingCharacters(in: " \t") }
        if values.contains(where: { $0.contains(": ") || $0.hasSuffix(":") }),
          !values.dropFirst().contains(where: { $0.hasPrefix("#") || $0.contains(" #") })
        {
          lines[index] = Substring("\(entry.indentation)\(entry.key): \"\(escaped(entry.value))")
          for continuation in (index + 1)...last {
            let indentation = lines[continuation].prefix { $0 == " " }
            let text = escaped(lines[continuation].trimmingCharacters(in: " \t"))
            lines[continuation] = text.isEmpty ? "" : Substring("\(indentation)\(text)")
          }
          lines[last] += "\""
          changed.append(index + 1)
        }
        index = last + 1
        continue
      }
      if entry.value.contains(": ") || entry.value.hasSuffix(":") {
        lines[index] = Substring("\(entry.indentation)\(entry.key): \"\(escaped(entry.value))\"")
        changed.append(index + 1)
      }
      index += 1
    }
    guard !changed.isEmpty else { return nil }
    return (lines.joined(separator: "\n"), changed)
  }

  /// A `key: value` line whose value is plain (not quoted, not a flow
  /// collection, block scalar, anchor, alias or tag).
  private struct PlainEntry {
    var indentation: Substring
    var key: Substring
    var value: Substring

    init?(_ line: Substring) {
      indentation = line.prefix { $0 == " " }
      let rest = line.dropFirst(indentation.count)
      guard let first = rest.first, !"#-'\"[{&*!|>%@`".contains(first),
        let separator = rest.range(of: ": ")
      else { return nil }
      key = rest[..<separator.lowerBound]
      value = rest[separator.upperBound...].trimmingCharacters(in: " \t")
      guard !key.isEmpty, !key.contains(" #"), let valueStart = value.first,
        !"'\"[{|>&*!#".contains(valueStart)
      else { return nil }
    }
  }

  /// The index of the last line that goes on `entry`'s value (more indented
  /// than its key, blank lines between such lines included); `index` when none does.
  private static func lastContinuation(of entry: PlainEntry, at index: Int, in lines: [Substring]) -> Int {
    var last = index
    var next = index + 1
    while next < lines.endIndex {
      let line = lines[next]
      if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
        next += 1
        continue
      }
      guard line.prefix(while: { $0 == " " }).count > entry.indentation.count else { break }
      last = next
      next += 1
    }
    return last
  }

  /// `text` as the inside of a double-quoted YAML string.
  private static func escaped(_ text: Substring) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "\\": escaped += "\\\\"
      case "\"": escaped += "\\\""
      case "\t": escaped += "\\t"
      default: escaped.append(character)
      }
    }
    return escaped
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: String) -> Substring {
    var result = self
    while let first = result.first, set.contains(first) { result = result.dropFirst() }
    while let last = result.last, set.contains(last) { result = result.dropLast() }
    return result
  }
}

/// A second repair for front matter that YAML cannot read: JSON-style
/// surrogate pairs in double-quoted strings (`"\uD83D\uDD2D"` for 🔭), which
/// JSON and most YAML readers accept and libyaml refuses, become the one
/// escape YAML defines for such a character (`\U0001F52D`).
enum SurrogateEscapeFallback {
  /// The text with every `\uD8xx\uDCxx` pair joined, and the 1-based lines
  /// changed; `nil` when there is none.
  static func joiningSurrogatePairs(in yaml: String) -> (text: String, lines: [Int])? {
    guard yaml.contains("\\u") else { return nil }
    var changed: [Int] = []
    var lines: [Substring] = yaml.split(separator: "\n", omittingEmptySubsequences: false)
    for index in lines.indices {
      guard let joined = joined(lines[index]) else { continue }
      lines[index] = Substring(joined)
      changed.append(index + 1)
    }
    guard !changed.isEmpty else { return nil }
    return (lines.joined(separator: "\n"), changed)
  }

  private static func joined(_ line: Substring) -> String? {
    let scalars = Array(line.unicodeScalars)
    var result = String.UnicodeScalarView()
    var index = 0
    var didJoin = false
    while index < scalars.count {
      if let high = escape(in: scalars, at: index), (0xD800...0xDBFF).contains(high),
        let low = escape(in: scalars, at: index + 6), (0xDC00...0xDFFF).contains(low)
      {
        let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        let hex = String(value, radix: 16, uppercase: true)
        result.append(contentsOf: "\\U\(String(repeating: "0", count: 8 - hex.count))\(hex)".unicodeScalars)
        index += 12
        didJoin = true
        continue
      }
      result.append(scalars[index])
      index += 1
    }
    return didJoin ? String(result) : nil
  }

  /// The value of a `\uXXXX` escape starting at `index`, if one does.
  private static func escape(in scalars: [Unicode.Scalar], at index: Int) -> Int? {
    guard index + 6 <= scalars.count, scalars[index] == "\\", scalars[index + 1] == "u" else { return nil }
    var value = 0
    for scalar in scalars[(index + 2)..<(index + 6)] {
      guard let digit = Int(String(scalar), radix: 16) else { return nil }
      value = value * 16 + digit
    }
    return value
  }
}
