import ModelSession
import Testing

@Suite(.timeLimit(.minutes(10))) struct JSONWriterTests {
  @Test(.timeLimit(.minutes(10))) func `strings escape only quotes, backslashes and control characters`() {
    let content = GeneratedContent("q\" b\\ s/ n\n t\t r\r b\u{08} f\u{0C} nul\u{0} us\u{1F} del\u{7F} é 😀")
    #expect(content.jsonString == #""q\" b\\ s/ n\n t\t r\r b\b f\f nul\u0000 us\u001f del\#u{7F} é 😀""#)
  }

  @Test(
    .timeLimit(.minutes(10)),
    arguments: [
      (0.0, "0"), (-0.0, "-0"), (3, "3"), (-17, "-17"), (1.5, "1.5"), (0.1, "0.1"), (1e-7, "1e-07"),
      (9_007_199_254_740_991, "9007199254740991"), (9_007_199_254_740_992, "9007199254740992.0"),
      (1e16, "1e+16"),
      (1e300, "1e+300"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
      (.leastNonzeroMagnitude, "5e-324"),
      (.infinity, "null"), (-.infinity, "null"), (.nan, "null"),
    ])
  func `numbers print as integers when whole and shortest otherwise`(number: Double, text: String) {
    #expect(GeneratedContent(number).jsonString == text)
  }

  @Test(.timeLimit(.minutes(10))) func `the same value always gives the same bytes`() throws {
    let text = #"{"z":[1,2.5,"x"],"a":{"k":null,"b":true},"m":"\u00e9"}"#
    let first = try GeneratedContent(json: text)
    let second = try GeneratedContent(json: first.jsonString)
    #expect(first.jsonString == second.jsonString)
    #expect(Array(first.jsonString.utf8) == Array(second.jsonString.utf8))
    #expect(first.jsonString == #"{"z":[1,2.5,"x"],"a":{"k":null,"b":true},"m":"é"}"#)
    let built = GeneratedContent(
      kind: .structure(
        properties: ["b": GeneratedContent(1), "a": GeneratedContent(2)], orderedKeys: ["b", "a"]))
    #expect(built.jsonString == #"{"b":1,"a":2}"#)
  }

  @Test(.timeLimit(.minutes(10))) func `pretty printing indents by two spaces`() throws {
    let content = try GeneratedContent(json: #"{"a":[1,{"b":null}],"c":{},"d":[]}"#)
    let expected = """
      {
        "a": [
          1,
          {
            "b": null
          }
        ],
        "c": {},
        "d": []
      }
      """
    #expect(content.jsonString(prettyPrinted: true) == expected)
    #expect(try GeneratedContent(json: expected) == content)
    #expect(GeneratedContent(1).jsonString(prettyPrinted: true) == "1")
  }

  @Test(.timeLimit(.minutes(10))) func `description is the compact JSON text`() throws {
    let content = try GeneratedContent(json: #"[1, "a"]"#)
    #expect(content.description == #"[1,"a"]"#)
    #expect(content.debugDescription == #"GeneratedContent([1,"a"])"#)
    #expect(try GeneratedContent(partialJSON: "[1, ").debugDescription == "GeneratedContent(partial: [1])")
  }
}
