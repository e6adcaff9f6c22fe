import ModelSession
import Testing

private let streamedDocument = """
  {"title": "Caf\\u00e9 \\"Le Nord\\"\\n", "rating": -4.25e1, "open": true, "closed": false,
   "owner": null, "tags": ["wifi", "qu\\ud83d\\ude00et", [], {}], "a": "b", "a": "c",
   "menu": {"items": [{"name": "tea", "price": 3}, {"name": "cake", "price": 0.5}], "count": 120},
   "empty": "", "last": [1, [2, [3e-2]]], "emoji": "😀 日本"}
  """

/// The value with `~` after every incomplete part, to compare completeness too.
private func marked(_ content: GeneratedContent) -> String {
  let mark = content.isComplete ? "" : "~"
  switch content.kind {
  case .array(let elements):
    return "[" + elements.map(marked).joined(separator: ",") + "]" + mark
  case .structure(let properties, let keys):
    let members = keys.map { key in "\(key):" + (properties[key].map(marked) ?? "?") }
    return "{" + members.joined(separator: ",") + "}" + mark
  default:
    return content.jsonString + mark
  }
}

@Suite(.timeLimit(.minutes(10))) struct StreamingJSONParserTests {
  @Test(.timeLimit(.minutes(10)), arguments: [1, 2, 3, 5, 7, 16, 64, 1_000])
  func `streaming in pieces matches parsing each prefix`(pieceLength: Int) throws {
    let characters = Array(streamedDocument)
    var parser = StreamingJSONParser()
    #expect(!parser.content.isComplete)
    var prefix = ""
    for start in stride(from: 0, to: characters.count, by: pieceLength) {
      let piece = String(characters[start..<min(start + pieceLength, characters.count)])
      prefix += piece
      let streamed = try parser.append(piece)
      let reparsed = try GeneratedContent(partialJSON: prefix)
      #expect(marked(streamed) == marked(reparsed), "after \(prefix.utf8.count) bytes")
      #expect(streamed == parser.content)
    }
    #expect(parser.content.isComplete)
    #expect(parser.content == (try GeneratedContent(json: streamedDocument)))
  }

  @Test(.timeLimit(.minutes(10))) func `streaming accepts trailing whitespace and rejects trailing text`()
    throws
  {
    var parser = StreamingJSONParser()
    try parser.append("[1, 2]")
    #expect(parser.content.isComplete)
    try parser.append("  \n")
    #expect(parser.content.jsonString == "[1,2]")
    let error = try #require(throws: JSONParsingError.self) { try parser.append(" x") }
    #expect(error.offset == 10)
    #expect(error.message == "unexpected 'x' after the JSON value")
    #expect(throws: error) { try parser.append("") }
  }

  @Test(.timeLimit(.minutes(10))) func `streaming reports errors with offsets into the whole text`() throws {
    var parser = StreamingJSONParser()
    try parser.append("{\"a\": [1,\n")
    let error = try #require(throws: JSONParsingError.self) { try parser.append("  2 3]}") }
    #expect(error.offset == 14)
    #expect(error.line == 2)
    #expect(error.column == 5)
    #expect(error.message == "expected ',' or ']' after array element")
  }

  @Test(.timeLimit(.minutes(10)))
  func `a streamed top-level number stays incomplete until more text arrives`()
    throws
  {
    var parser = StreamingJSONParser()
    #expect(try parser.append("12").jsonString == "12")
    #expect(!parser.content.isComplete)
    #expect(try parser.append("3.5").jsonString == "123.5")
    #expect(try parser.append(" ").isComplete)
  }
}
