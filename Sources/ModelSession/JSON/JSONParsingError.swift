/// Why a text could not be parsed as JSON, and where.
///
/// The position is given three ways: the byte offset into the UTF-8 text, and
/// the 1-based line and column (the column counts Unicode scalars, so it matches
/// what an editor shows for most text).
///
/// ```swift
/// do {
///   _ = try GeneratedContent(json: #"{"a": 1 "b": 2}"#)
/// } catch let error as JSONParsingError {
///   print(error)  // line 1, column 9: expected ',' or '}' after object member
/// }
/// ```
public struct JSONParsingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The offset, in UTF-8 bytes from the start of the text, where the problem was found.
  public var offset: Int
  /// The 1-based line of `offset`.
  public var line: Int
  /// The 1-based column of `offset`, counted in Unicode scalars.
  public var column: Int
  /// What is wrong, such as `unterminated string` or `expected ':' after object key`.
  public var message: String

  /// Creates an error at an explicit position.
  public init(offset: Int, line: Int, column: Int, message: String) {
    self.offset = offset
    self.line = line
    self.column = column
    self.message = message
  }

  /// Creates an error at `offset` in `bytes`, working out its line and column.
  init(message: String, offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
    var line = 1
    var column = 1
    var index = 0
    let end = min(offset, bytes.count)
    while index < end {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0b1100_0000 != 0b1000_0000 {
        // Only the first byte of a UTF-8 sequence starts a new scalar.
        column += 1
      }
      index += 1
    }
    self.init(offset: offset, line: line, column: column, message: message)
  }

  /// The position and the message: `line 3, column 7: unterminated string`.
  public var description: String {
    "line \(line), column \(column): \(message)"
  }
}
