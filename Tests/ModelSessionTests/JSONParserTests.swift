import ModelSession
import Testing

@Suite(.timeLimit(.minutes(10))) struct JSONParserTests {
  @Test(.timeLimit(.minutes(10))) func `parsing keeps the order of object keys`() throws {
    let content = try GeneratedContent(json: #"{"zeta": 1, "alpha": 2, "mid": {"y": true, "x": false}}"#)
    #expect(content.orderedKeys == ["zeta", "alpha", "mid"])
    #expect(content[property: "mid"]?.orderedKeys == ["y", "x"])
    #expect(content.jsonString == #"{"zeta":1,"alpha":2,"mid":{"y":true,"x":false}}"#)
  }

  @Test(.timeLimit(.minutes(10))) func `a repeated key keeps its first position and its last value`() throws {
    let content = try GeneratedContent(json: #"{"a": 1, "b": 2, "a": 3}"#)
    let expected = GeneratedContent(orderedProperties: [
      ("a", GeneratedContent(1)), ("b", GeneratedContent(2)), ("a", GeneratedContent(3)),
    ])
    #expect(content == expected)
    #expect(content.jsonString == #"{"a":3,"b":2}"#)
  }

  @Test(.timeLimit(.minutes(10))) func `a large object with repeated keys matches orderedProperties`() throws
  {
    let pairs = (0..<40).map { ("k\($0 % 25)", GeneratedContent($0)) }
    let text = "{" + pairs.map { "\"\($0.0)\": \($0.1.jsonString)" }.joined(separator: ",") + "}"
    #expect(try GeneratedContent(json: text) == GeneratedContent(orderedProperties: pairs))
  }

  @Test(
    .timeLimit(.minutes(10)),
    arguments: [
      #"null"#, #"true"#, #"false"#, #"0"#, #"-1"#, #"1.5"#, #""""#, #""text""#, #"[]"#, #"{}"#,
      #"[1,[2,[3,[]]],{}]"#, #"{"a":{"b":{"c":[null,true,"x"]}}}"#, #"[-0,0.1,1e-07,1e+300]"#,
    ])
  func `compact JSON round-trips byte for byte`(text: String) throws {
    #expect(try GeneratedContent(json: text).jsonString == text)
  }

  @Test(.timeLimit(.minutes(10))) func `whitespace is allowed around every token`() throws {
    let content = try GeneratedContent(json: " \t\r\n{ \"a\" :\n[ 1 ,\t2 ] , \"b\" : null }\r\n ")
    #expect(content.jsonString == #"{"a":[1,2],"b":null}"#)
  }

  @Test(.timeLimit(.minutes(10))) func `unicode escapes decode, including surrogate pairs`() throws {
    let content = try GeneratedContent(json: #""\u0041\u00e9\u20AC\ud83d\ude00\uD834\uDD1E""#)
    #expect(try content.value(String.self) == "Aé€😀𝄞")
    // Each end of the one-, two- and three-byte UTF-8 ranges.
    let edges = try GeneratedContent(json: #""\u007F\u0080\u07FF\u0800\uFFFF""#)
    #expect(try edges.value(String.self).unicodeScalars.map(\.value) == [0x7F, 0x80, 0x7FF, 0x800, 0xFFFF])
  }

  @Test(.timeLimit(.minutes(10))) func `surrogate pairs decode at both ends of the four-byte range`() throws {
    // RFC 8259 section 7: \uD800\uDC00 is U+10000, the first scalar beyond the BMP, and
    // \uDBFF\uDFFF is U+10FFFF, the last; RFC 3629 gives their UTF-8 as F0 90 80 80 and F4 8F BF BF.
    let content = try GeneratedContent(json: #""\uD800\uDC00\uDBFF\uDFFF""#)
    let text = try content.value(String.self)
    #expect(text.unicodeScalars.map(\.value) == [0x10000, 0x10FFFF])
    #expect(Array(text.utf8) == [0xF0, 0x90, 0x80, 0x80, 0xF4, 0x8F, 0xBF, 0xBF])
    // Lower-case hex digits, after another escape, decode the same.
    #expect(try GeneratedContent(json: #""\n\udbff\udfff""#).value(String.self) == "\n\u{10FFFF}")
  }

  @Test(.timeLimit(.minutes(10))) func `simple escapes decode`() throws {
    let content = try GeneratedContent(json: #""\"\\\/\b\f\n\r\t""#)
    #expect(try content.value(String.self) == "\"\\/\u{08}\u{0C}\n\r\t")
  }

  @Test(.timeLimit(.minutes(10))) func `non-ASCII text passes through unchanged`() throws {
    let content = try GeneratedContent(json: "\"héllo wörld 日本 😀\"")
    #expect(try content.value(String.self) == "héllo wörld 日本 😀")
  }

  @Test(.timeLimit(.minutes(10))) func `escaped NUL is allowed`() throws {
    #expect(try GeneratedContent(json: #""a\u0000b""#).value(String.self) == "a\u{0}b")
  }

  @Test(
    .timeLimit(.minutes(10)),
    arguments: [
      ("0", 0.0), ("-0", -0.0), ("1", 1), ("-1", -1), ("1.5", 1.5), ("0.1", 0.1), ("1e308", 1e308),
      ("1.7976931348623157e308", .greatestFiniteMagnitude), ("5e-324", .leastNonzeroMagnitude),
      ("2.2250738585072014E-308", 2.2250738585072014e-308),
      ("1e-400", 0), ("123456789012345678901234567890", 123456789012345678901234567890.0),
      ("9007199254740993", 9007199254740992), ("0e99999", 0), ("1e-99999", 0), ("-0.0e5", -0.0),
      ("1" + String(repeating: "0", count: 300), 1e300),
      ("0." + String(repeating: "0", count: 399) + "1e400", 1),
      ("1E+2", 100), ("1e-2", 0.01), ("-12.5e-1", -1.25),
      ("0.30000000000000004", 0.30000000000000004), ("3.141592653589793", 3.141592653589793),
    ])
  func `numbers parse to the nearest Double`(text: String, expected: Double) throws {
    let value = try GeneratedContent(json: text).value(Double.self)
    #expect(value == expected)
    #expect(value.sign == expected.sign)
  }

  @Test(.timeLimit(.minutes(10))) func `a 16-digit mantissa with an exponent is rounded once, not twice`()
    throws
  {
    // 9007199254740993 = 2^53 + 1 is not a Double; times 10 it is 90071992547409930, whose
    // neighbours 16 apart are 90071992547409920 (10 away) and 90071992547409936 (6 away).
    // Rounding the mantissa first (to 2^53, ties to even) and then multiplying gives the
    // farther one: the exact shortcut holds for at most 15 digits.
    #expect(try GeneratedContent(json: "9007199254740993e1").value(Double.self) == 90_071_992_547_409_936)
    // 15 digits and exponents of ±22 stay exact: 10^22 is the largest power of ten a Double holds.
    #expect(try GeneratedContent(json: "123456789012345e-3").value(Double.self) == 123_456_789_012.345)
    #expect(try GeneratedContent(json: "1e22").value(Double.self) == 1e22)
    #expect(try GeneratedContent(json: "1e23").value(Double.self) == 1e23)
    #expect(try GeneratedContent(json: "1e-22").value(Double.self) == 1e-22)
    #expect(try GeneratedContent(json: "1e-23").value(Double.self) == 1e-23)
  }

  @Test(.timeLimit(.minutes(10))) func `minus zero keeps its sign`() throws {
    let value = try GeneratedContent(json: "-0").value(Double.self)
    #expect(value.sign == .minus)
    #expect(GeneratedContent(-0.0).jsonString == "-0")
  }

  @Test(.timeLimit(.minutes(10))) func `numbers round-trip through their text`() throws {
    let numbers: [Double] = [
      0.1, 1.0 / 3, 1e-7, 123.456, 1e21, 9_007_199_254_740_992, -9_007_199_254_740_991,
      .leastNonzeroMagnitude,
      .greatestFiniteMagnitude, 2.5e-8,
    ]
    for number in numbers {
      let text = GeneratedContent(number).jsonString
      #expect(try GeneratedContent(json: text).value(Double.self) == number, "\(text)")
    }
  }

  @Test(.timeLimit(.minutes(10))) func `nesting to 10,000 levels parses and 10,001 is rejected`() async throws
  {
    let accepted = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    let content = try GeneratedContent(json: accepted)
    #expect(content.jsonString == accepted)
    let rejected = String(repeating: "[", count: 10_001) + String(repeating: "]", count: 10_001)
    let error = try #require(throws: JSONParsingError.self) { try GeneratedContent(json: rejected) }
    #expect(error.offset == 10_000)
    #expect(error.message == "nesting deeper than 10000 levels")
  }

  @Test(.timeLimit(.minutes(10))) func `deep objects parse too`() async throws {
    let text = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
    let content = try GeneratedContent(json: text)
    #expect(content.jsonString == text)
    #expect(try GeneratedContent(partialJSON: String(text.dropLast(5_000))).isComplete == false)
  }
}
