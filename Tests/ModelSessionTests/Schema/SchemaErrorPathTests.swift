import ModelSession
import Testing

/// The path of a validation error, for a property named `name` that holds a string where
/// the schema wants an integer, one level down or below an array element.
private func errorPath(property name: String, inArray: Bool = false) throws -> String? {
  let object = DynamicGenerationSchema(
    name: "Thing", properties: [.init(name: name, schema: .init(type: Int.self))])
  let root = inArray ? DynamicGenerationSchema(arrayOf: object) : object
  let value = GeneratedContent(
    kind: .structure(properties: [name: GeneratedContent("not a number")], orderedKeys: [name]))
  do {
    try GenerationSchema(root: root, dependencies: []).validate(
      inArray ? GeneratedContent(kind: .array([value])) : value)
    return nil
  } catch let error as SchemaValidationError {
    return error.path
  }
}

@Suite("Schema error paths", .timeLimit(.minutes(10))) struct SchemaErrorPathTests {
  @Test(arguments: [
    ("count", "$.count"), ("_id2", "$._id2"), ("année", "$.année"),
    // Not identifiers: quoted, with backslashes and quotes escaped as in JSON.
    ("a key", #"$["a key"]"#), ("1st", #"$["1st"]"#), ("", #"$[""]"#),
    (#"say "hi""#, #"$["say \"hi\""]"#), (#"C:\dir"#, #"$["C:\\dir"]"#), (#"\""#, #"$["\\\""]"#),
  ])
  func `a property is named as an identifier, or quoted with its quotes and backslashes escaped`(
    name: String, path: String
  ) throws {
    #expect(try errorPath(property: name) == path)
  }

  @Test func `a quoted property below an array element follows the element's index`() throws {
    #expect(try errorPath(property: #"a\b"#, inArray: true) == #"$[0]["a\\b"]"#)
    #expect(try errorPath(property: "x", inArray: true) == "$[0].x")
  }
}
