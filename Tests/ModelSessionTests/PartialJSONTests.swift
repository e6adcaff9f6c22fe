import ModelSession
import Testing

private let sampleDocument = """
  {"title": "Caf\\u00e9 \\"Le Nord\\"\\n", "rating": -4.25e1, "open": true,
   "closed": false, "owner": null, "tags": ["wifi", "qu\\ud83d\\ude00et", [], {}],
   "menu": {"items": [{"name": "tea", "price": 3}, {"name": "cake", "price": 0.5}], "count": 120},
   "empty": "", "last": [1, [2, [3e-2]]]}
  """

/// Whether `partial` agrees with `final` so far: every complete value equals
/// the final one, and incomplete containers hold a prefix of its members.
private func isConsistent(_ partial: GeneratedContent, with final: GeneratedContent) -> Bool {
  if partial.isComplete { return partial == final }
  switch (partial.kind, final.kind) {
  case (.string(let part), .string(let whole)):
    return whole.hasPrefix(part)
  case (.number, .number):
    return true
  case (.null, _):
    return true
  case (.array(let partElements), .array(let wholeElements)):
    guard partElements.count <= wholeElements.count else { return false }
    for (index, element) in partElements.enumerated() {
      let isLast = index == partElements.count - 1
      guard isLast || element.isComplete, isConsistent(element, with: wholeElements[index]) else {
        return false
      }
    }
    return true
  case (.structure(_, let partKeys), .structure(_, let wholeKeys)):
    guard partKeys.count <= wholeKeys.count, Array(wholeKeys.prefix(partKeys.count)) == partKeys else {
      return false
    }
    for (index, key) in partKeys.enumerated() {
      guard let element = partial[property: key], let whole = final[property: key] else { return false }
      let isLast = index == partKeys.count - 1
      guard isLast || element.isComplete, isConsistent(element, with: whole) else { return false }
    }
    return true
  default:
    return false
  }
}

@Suite(.timeLimit(.minutes(10))) struct PartialJSONTests {
  @Test(.timeLimit(.minutes(10))) func `every prefix of a document parses as a consistent partial value`()
    throws
  {
    let final = try GeneratedContent(json: sampleDocument)
    let bytes = Array(sampleDocument.utf8)
    for length in 0...bytes.count {
      // Only whole characters: a String cannot end inside a UTF-8 sequence.
      guard length == bytes.count || bytes[length] & 0b1100_0000 != 0b1000_0000 else { continue }
      let prefix = String(decoding: bytes[..<length], as: UTF8.self)
      let partial = try GeneratedContent(partialJSON: prefix)
      let isWhole = length == bytes.count
      #expect(partial.isComplete == isWhole, "prefix length \(length)")
      #expect(isConsistent(partial, with: final), "prefix length \(length): \(partial.jsonString)")
      // What a partial value prints is itself valid JSON.
      #expect(throws: Never.self) { try GeneratedContent(json: partial.jsonString) }
    }
    #expect(try GeneratedContent(partialJSON: sampleDocument) == final)
  }

  @Test(
    .timeLimit(.minutes(10)),
    arguments: [
      (#"{"a": "hel"#, #"{"a":"hel"}"#),
      (#"{"a": "x\u00"#, #"{"a":"x"}"#),
      (#"{"a": "x\ud83d"#, #"{"a":"x"}"#),
      (#"{"a": "x\ud83d\u"#, #"{"a":"x"}"#),
      (#"{"a": "x\"#, #"{"a":"x"}"#),
      (#"{"a": 12"#, #"{"a":12}"#),
      (#"{"a": 1."#, #"{"a":1}"#),
      (#"{"a": 1.5e"#, #"{"a":1.5}"#),
      (#"{"a": 1.5e-"#, #"{"a":1.5}"#),
      (#"{"a": -"#, #"{}"#),
      (#"{"a": 1"# + String(repeating: "0", count: 400), #"{}"#),
      (#"{"a": tr"#, #"{}"#),
      (#"{"a": nul"#, #"{}"#),
      (#"{"a": null"#, #"{"a":null}"#),
      (#"{"a""#, #"{}"#),
      (#"{"a":"#, #"{}"#),
      (#"{"a"#, #"{}"#),
      (#"{"#, #"{}"#),
      (#"[1, 2, "#, #"[1,2]"#),
      (#"[1, [2, {"b": [true"#, #"[1,[2,{"b":[true]}]]"#),
      ("", "null"),
      ("  ", "null"),
      ("fals", "null"),
      (#""abc"#, #""abc""#),
    ])
  func `partial JSON keeps what is known`(prefix: String, expected: String) throws {
    let content = try GeneratedContent(partialJSON: prefix)
    #expect(content.jsonString == expected)
    #expect(!content.isComplete)
  }

  @Test(.timeLimit(.minutes(10))) func `unfinished values are marked incomplete and finished ones complete`()
    throws
  {
    let content = try GeneratedContent(partialJSON: #"{"done": [1, 2], "open": [3, "fo"#)
    #expect(!content.isComplete)
    #expect(content[property: "done"]?.isComplete == true)
    let open = try #require(content[property: "open"])
    #expect(!open.isComplete)
    let elements = try open.value([GeneratedContent].self)
    #expect(elements[0].isComplete)
    #expect(!elements[1].isComplete)
  }

  @Test(.timeLimit(.minutes(10))) func `a complete document parsed partially is complete`() throws {
    let content = try GeneratedContent(partialJSON: #"{"a": [1, "x"]} "#)
    #expect(content.isComplete)
    #expect(content == (try GeneratedContent(json: #"{"a": [1, "x"]}"#)))
  }
}

extension PartialJSONTests {
  @Test func `a finished escape at the end of an unterminated string is kept`() throws {
    // The text is: quote, a, b, backslash, n — the escape is whole, the string is not.
    let newline = try GeneratedContent(partialJSON: "\"ab\\n")
    #expect(newline == GeneratedContent(kind: .string("ab\n")))
    #expect(!newline.isComplete)
    let accent = try GeneratedContent(partialJSON: "{\"k\": \"caf\\u00e9")
    #expect(accent[property: "k"] == GeneratedContent(kind: .string("café")))
    // An escape cut in the middle is left out until the rest arrives.
    #expect(try GeneratedContent(partialJSON: "\"ab\\") == GeneratedContent(kind: .string("ab")))
    #expect(try GeneratedContent(partialJSON: "\"ab\\u00") == GeneratedContent(kind: .string("ab")))
    var streaming = StreamingJSONParser()
    _ = try streaming.append("\"x\\t")
    #expect(streaming.content == GeneratedContent(kind: .string("x\t")))
  }
}
