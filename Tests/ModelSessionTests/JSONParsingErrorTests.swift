import ModelSession
import Testing

/// A malformed document and the error it must raise.
struct MalformedJSON: Sendable, CustomTestStringConvertible {
  var text: String
  var offset: Int
  var line: Int
  var column: Int
  var message: String

  var testDescription: String { text.debugDescription }
}

private let malformedDocuments: [MalformedJSON] = [
  .init(text: "", offset: 0, line: 1, column: 1, message: "unexpected end of input, expected a value"),
  .init(text: "   ", offset: 3, line: 1, column: 4, message: "unexpected end of input, expected a value"),
  .init(
    text: #"{"a": 1 "b": 2}"#, offset: 8, line: 1, column: 9,
    message: "expected ',' or '}' after object member"),
  .init(text: "[1 2]", offset: 3, line: 1, column: 4, message: "expected ',' or ']' after array element"),
  .init(
    text: "{\"a\"\n: 1,\n \"b\" 2}", offset: 15, line: 3, column: 6, message: "expected ':' after object key"),
  .init(text: #""abc"#, offset: 0, line: 1, column: 1, message: "unterminated string"),
  .init(text: #"{"ab"#, offset: 1, line: 1, column: 2, message: "unterminated string"),
  .init(text: "[01]", offset: 1, line: 1, column: 2, message: "leading zeros are not allowed in numbers"),
  .init(text: "-01", offset: 0, line: 1, column: 1, message: "leading zeros are not allowed in numbers"),
  .init(text: "[1,]", offset: 3, line: 1, column: 4, message: "expected a value, found ']'"),
  .init(text: #"{"a":1,}"#, offset: 7, line: 1, column: 8, message: "expected a string key, found '}'"),
  .init(text: "{a:1}", offset: 1, line: 1, column: 2, message: "expected a string key or '}', found 'a'"),
  .init(text: "tru", offset: 0, line: 1, column: 1, message: "unexpected end of input in literal 'true'"),
  .init(text: "nul", offset: 0, line: 1, column: 1, message: "unexpected end of input in literal 'null'"),
  .init(text: "trUe", offset: 0, line: 1, column: 1, message: "invalid literal, expected 'true'"),
  .init(text: "True", offset: 0, line: 1, column: 1, message: "expected a value, found 'T'"),
  .init(
    text: "1e400", offset: 0, line: 1, column: 1,
    message: "number 1e400 is out of range for a 64-bit floating-point value"),
  .init(
    text: "-1e400", offset: 0, line: 1, column: 1,
    message: "number -1e400 is out of range for a 64-bit floating-point value"),
  .init(
    text: "1E99999999999999999999", offset: 0, line: 1, column: 1,
    message: "number 1E99999999999999999999 is out of range for a 64-bit floating-point value"),
  .init(text: "1.", offset: 2, line: 1, column: 3, message: "expected a digit after '.', found end of input"),
  .init(text: "1.e3", offset: 2, line: 1, column: 3, message: "expected a digit after '.', found 'e'"),
  .init(
    text: "1e", offset: 2, line: 1, column: 3, message: "expected a digit after exponent, found end of input"),
  .init(text: "1e+x", offset: 3, line: 1, column: 4, message: "expected a digit in exponent, found 'x'"),
  .init(text: "-", offset: 1, line: 1, column: 2, message: "expected a digit after '-', found end of input"),
  .init(text: "-a", offset: 1, line: 1, column: 2, message: "expected a digit after '-', found 'a'"),
  .init(text: ".5", offset: 0, line: 1, column: 1, message: "expected a value, found '.'"),
  .init(text: "+1", offset: 0, line: 1, column: 1, message: "expected a value, found '+'"),
  .init(text: "0x10", offset: 1, line: 1, column: 2, message: "unexpected 'x' after the JSON value"),
  .init(text: "NaN", offset: 0, line: 1, column: 1, message: "expected a value, found 'N'"),
  .init(text: "{} {}", offset: 3, line: 1, column: 4, message: "unexpected '{' after the JSON value"),
  .init(text: "[1]]", offset: 3, line: 1, column: 4, message: "unexpected ']' after the JSON value"),
  .init(
    text: "\"a\nb\"", offset: 2, line: 1, column: 3,
    message: "control character U+000A in string must be escaped"),
  .init(
    text: "\"a\tb\"", offset: 2, line: 1, column: 3,
    message: "control character U+0009 in string must be escaped"),
  // After an escape the string takes the parser's other path; it refuses the same.
  .init(
    text: "\"a\\nb\u{01}\"", offset: 5, line: 1, column: 6,
    message: "control character U+0001 in string must be escaped"),
  .init(text: #""\x""#, offset: 1, line: 1, column: 2, message: "invalid escape sequence '\\x'"),
  .init(
    text: #""\u12G4""#, offset: 5, line: 1, column: 6,
    message: "invalid \\u escape: expected 4 hex digits, found 'G'"),
  .init(
    text: #""\ud800""#, offset: 1, line: 1, column: 2, message: "unpaired high surrogate \\uD800 in string"),
  .init(
    text: #""\ud800\n""#, offset: 1, line: 1, column: 2, message: "unpaired high surrogate \\uD800 in string"),
  .init(
    text: #""\ud800\u0041""#, offset: 1, line: 1, column: 2,
    message: "unpaired high surrogate \\uD800 in string"),
  .init(
    text: #""\udc00""#, offset: 1, line: 1, column: 2, message: "unpaired low surrogate \\uDC00 in string"),
  .init(text: #""ab\"#, offset: 3, line: 1, column: 4, message: "unterminated escape sequence in string"),
  .init(text: #"["é", x]"#, offset: 7, line: 1, column: 7, message: "expected a value, found 'x'"),
  .init(text: "[\u{00A0}1]", offset: 1, line: 1, column: 2, message: "expected a value, found U+00A0"),
  .init(text: "\u{FEFF}{}", offset: 0, line: 1, column: 1, message: "expected a value, found U+FEFF"),
  .init(text: "[1,\r\n  2,\n  ?]", offset: 12, line: 3, column: 3, message: "expected a value, found '?'"),
  .init(
    text: #"{"a":1"#, offset: 6, line: 1, column: 7,
    message: "expected ',' or '}' after object member, found end of input"),
  .init(
    text: "[[1]", offset: 4, line: 1, column: 5,
    message: "expected ',' or ']' after array element, found end of input"),
  .init(
    text: #"{"a""#, offset: 4, line: 1, column: 5,
    message: "unexpected end of input, expected ':' after object key"),
  .init(text: #"{"a":"#, offset: 5, line: 1, column: 6, message: "unexpected end of input, expected a value"),
  .init(text: "{", offset: 1, line: 1, column: 2, message: "unexpected end of input, expected an object key"),
]

@Suite(.timeLimit(.minutes(10))) struct JSONParsingErrorTests {
  @Test(.timeLimit(.minutes(10)), arguments: malformedDocuments)
  func `malformed JSON throws with the offset, line, column and reason`(document: MalformedJSON) throws {
    let error = try #require(throws: JSONParsingError.self) { try GeneratedContent(json: document.text) }
    #expect(error.message == document.message)
    #expect(error.offset == document.offset)
    #expect(error.line == document.line)
    #expect(error.column == document.column)
  }

  @Test(.timeLimit(.minutes(10))) func `an error describes itself with its line and column`() {
    let error = JSONParsingError(
      offset: 8, line: 1, column: 9, message: "expected ',' or '}' after object member")
    #expect(error.description == "line 1, column 9: expected ',' or '}' after object member")
  }

  @Test(
    .timeLimit(.minutes(10)),
    arguments: [
      "[1 2]", "{\"a\" 1}", "[1,]", "\"a\nb\"", #""\x""#, #""\ud800\n""#, #""\udc00""#, "01", "1e400", "[}",
      "{]",
      "truex",
      "[\"a\" \"b\"]", "nulL", "[1.e5]",
    ])
  func `partial parsing rejects what can never become valid`(text: String) {
    #expect(throws: JSONParsingError.self) { try GeneratedContent(partialJSON: text) }
  }
}
