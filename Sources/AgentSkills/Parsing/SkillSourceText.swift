/// The text of a `SKILL.md` file, checked and split into front matter and body.
///
/// A UTF-8 byte order mark is dropped, and CRLF and lone CR line endings become
/// LF, so that a skill written on any system gives the model the same bytes.
struct SkillSourceText {
  /// The YAML between the two `---` lines.
  var frontMatter: String
  /// The file's line number of the first front matter line.
  var frontMatterFirstLine: Int
  /// Everything after the closing `---` line.
  var body: String
  /// The file's line number of the first body line.
  var bodyFirstLine: Int

  /// A problem that makes the file unreadable as a skill.
  struct Problem: Error {
    var message: String
    var line: Int
    var column: Int
  }

  /// Decodes and splits the bytes of a `SKILL.md` file.
  static func parse(_ raw: [UInt8]) -> Result<SkillSourceText, Problem> {
    var bytes = raw
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    if bytes.contains(13) { bytes = normalizingLineEndings(bytes) }
    // The delimiter lines are ASCII, so the file is valid UTF-8 exactly when
    // its front matter and body are: each is validated once, as it becomes a string.
    let parts = split(bytes)
    guard case .success(let ranges) = parts,
      let frontMatter = String(validating: bytes[ranges.frontMatter], as: UTF8.self),
      let body = String(validating: bytes[ranges.body], as: UTF8.self)
    else {
      if let (line, column) = firstInvalidUTF8(in: bytes) {
        return .failure(
          Problem(
            message: "SKILL.md is not valid UTF-8 (a byte sequence at this spot cannot be decoded); "
              + "save the file as UTF-8",
            line: line, column: column))
      }
      if case .failure(let problem) = parts { return .failure(problem) }
      return .failure(Problem(message: "SKILL.md cannot be decoded", line: 1, column: 1))
    }
    return .success(
      SkillSourceText(
        frontMatter: frontMatter, frontMatterFirstLine: 2, body: body, bodyFirstLine: ranges.bodyFirstLine))
  }

  /// Where the front matter and the body are in the file's bytes.
  private struct Parts {
    var frontMatter: Range<Int>
    var body: Range<Int>
    var bodyFirstLine: Int
  }

  private static func split(_ bytes: [UInt8]) -> Result<Parts, Problem> {
    let newline = UInt8(ascii: "\n")
    var lineStart = 0
    var lineNumber = 1
    var openingEnd: Int?
    while lineStart <= bytes.count {
      let lineEnd = bytes[lineStart...].firstIndex(of: newline) ?? bytes.count
      let isDelimiter = isDelimiterLine(bytes[lineStart..<lineEnd])
      if lineNumber == 1 {
        guard isDelimiter else {
          return .failure(
            Problem(
              message: "no front matter: SKILL.md must begin with a line \"---\", then YAML with at least "
                + "name and description, then a closing \"---\"",
              line: 1, column: 1))
        }
        openingEnd = lineEnd
      } else if isDelimiter, let openingEnd {
        let frontStart = min(openingEnd + 1, lineStart)
        let bodyStart = min(lineEnd + 1, bytes.count)
        return .success(
          Parts(
            frontMatter: frontStart..<lineStart, body: bodyStart..<bytes.count, bodyFirstLine: lineNumber + 1)
        )
      }
      if lineEnd == bytes.count { break }
      lineStart = lineEnd + 1
      lineNumber += 1
    }
    return .failure(
      Problem(
        message: "unterminated front matter: no closing --- (add a line \"---\" after the last YAML key)",
        line: 1, column: 1))
  }

  /// `---`, optionally followed by spaces or tabs.
  private static func isDelimiterLine(_ line: ArraySlice<UInt8>) -> Bool {
    let dash = UInt8(ascii: "-")
    guard line.count >= 3, line.prefix(3).allSatisfy({ $0 == dash }) else { return false }
    return line.dropFirst(3).allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
  }

  private static func normalizingLineEndings(_ bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 13 {
        result.append(10)
        if index + 1 < bytes.count && bytes[index + 1] == 10 { index += 1 }
      } else {
        result.append(byte)
      }
      index += 1
    }
    return result
  }

  /// The 1-based line and column (in characters) of the first byte that is not valid UTF-8.
  static func firstInvalidUTF8(in bytes: [UInt8]) -> (line: Int, column: Int)? {
    if String(validating: bytes, as: UTF8.self) != nil { return nil }
    var line = 1
    var column = 1
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        if scalar == "\n" {
          line += 1
          column = 1
        } else {
          column += 1
        }
      case .emptyInput:
        return nil
      case .error:
        return (line, column)
      }
    }
  }
}
