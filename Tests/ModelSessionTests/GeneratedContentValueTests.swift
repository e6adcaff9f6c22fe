import Foundation
import ModelSession
import Testing

private let sample = """
  {"name": "Ada", "age": 36, "height": 1.7, "admin": true, "score": 0.1, "tags": ["a", "b"],
   "matrix": [[1, 2], [3]], "nickname": null, "items": [{"id": 1}, {"id": "two"}], "big": 1e20}
  """

@Suite(.timeLimit(.minutes(10))) struct GeneratedContentValueTests {
  @Test(.timeLimit(.minutes(10))) func `typed access reads every conformance`() throws {
    let content = try GeneratedContent(json: sample)
    #expect(try content.value(String.self, forProperty: "name") == "Ada")
    #expect(try content.value(Int.self, forProperty: "age") == 36)
    #expect(try content.value(Double.self, forProperty: "height") == 1.7)
    #expect(try content.value(Bool.self, forProperty: "admin") == true)
    #expect(try content.value(Decimal.self, forProperty: "score") == Decimal(string: "0.1"))
    #expect(try content.value([String].self, forProperty: "tags") == ["a", "b"])
    #expect(try content.value([[Int]].self, forProperty: "matrix") == [[1, 2], [3]])
    #expect(try content.value(String?.self, forProperty: "nickname") == nil)
    #expect(try content.value(String?.self, forProperty: "missing") == nil)
    #expect(try content.value(Int?.self, forProperty: "age") == 36)
    #expect(try content.value(GeneratedContent.self, forProperty: "tags").jsonString == #"["a","b"]"#)
    #expect(try GeneratedContent(json: "[1, null]").value([Int?].self) == [1, nil])
  }

  @Test(.timeLimit(.minutes(10))) func `typed access errors name the path`() throws {
    let content = try GeneratedContent(json: sample)
    let mismatch = try #require(throws: GeneratedContentError.self) {
      try content.value(Int.self, forProperty: "name")
    }
    #expect(
      mismatch == GeneratedContentError(.typeMismatch(expected: "number", found: "string"), path: "$.name"))
    let missing = try #require(throws: GeneratedContentError.self) {
      try content.value(Int.self, forProperty: "missing")
    }
    #expect(missing.reason == .missingProperty("missing"))
    let fraction = try #require(throws: GeneratedContentError.self) {
      try content.value(Int.self, forProperty: "height")
    }
    #expect(fraction == GeneratedContentError(.numberOutOfRange(1.7, type: "Int"), path: "$.height"))
    let tooBig = try #require(throws: GeneratedContentError.self) {
      try content.value(Int.self, forProperty: "big")
    }
    #expect(tooBig.reason == .numberOutOfRange(1e20, type: "Int"))
    let element = try #require(throws: GeneratedContentError.self) {
      try content.value([Int].self, forProperty: "tags")
    }
    #expect(element.path == "$.tags[0]")
    #expect(element.description == "$.tags[0]: expected number, found string")
    let notObject = try #require(throws: GeneratedContentError.self) {
      try GeneratedContent(json: "[1]").value(Int.self, forProperty: "a")
    }
    #expect(notObject.reason == .typeMismatch(expected: "object", found: "array"))
    #expect(throws: GeneratedContentError.self) { try GeneratedContent(json: "null").value(Bool.self) }
    #expect(throws: GeneratedContentError.self) { try GeneratedContent(json: "1").value([Int].self) }
  }

  @Test(.timeLimit(.minutes(10))) func `a property that is present but null is a type mismatch, not missing`()
    throws
  {
    let content = try GeneratedContent(json: #"{"age": null}"#)
    let error = try #require(throws: GeneratedContentError.self) {
      try content.value(Int.self, forProperty: "age")
    }
    #expect(error == GeneratedContentError(.typeMismatch(expected: "number", found: "null"), path: "$.age"))
    #expect(try content.value(Int?.self, forProperty: "age") == nil)
  }

  @Test(.timeLimit(.minutes(10))) func `errors inside nested arrays and optionals carry the full path`()
    throws
  {
    let content = try GeneratedContent(json: #"{"matrix": [[1, 2], [3, "x"]], "flags": [true, null, 1]}"#)
    let nested = try #require(throws: GeneratedContentError.self) {
      try content.value([[Int]].self, forProperty: "matrix")
    }
    #expect(nested.path == "$.matrix[1][1]")
    #expect(nested.reason == .typeMismatch(expected: "number", found: "string"))
    let optional = try #require(throws: GeneratedContentError.self) {
      try content.value([Bool?].self, forProperty: "flags")
    }
    #expect(optional.path == "$.flags[2]")
    #expect(optional.description == "$.flags[2]: expected boolean, found number")
  }

  @Test(.timeLimit(.minutes(10)))
  func `an object made from its kind takes orderedKeys once each, then the keys it leaves out, sorted`() {
    let content = GeneratedContent(
      kind: .structure(
        properties: [
          "b": GeneratedContent(1), "a": GeneratedContent(2), "c": GeneratedContent(3),
          "z": GeneratedContent(4),
        ],
        orderedKeys: ["z", "ghost", "c", "z"]))
    #expect(content.orderedKeys == ["z", "c", "a", "b"])
    #expect(content.jsonString == #"{"z":4,"c":3,"a":2,"b":1}"#)
  }
}
