import Foundation
import ModelSession
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct GenerationSchemaDecodingTests {
  @Test(.timeLimit(.minutes(10))) func `a written schema reads back equal, in declared order`() throws {
    let schema = try peopleSchema()
    let read = try GenerationSchema(jsonSchema: schema.jsonSchema)
    #expect(read == schema)
    #expect(read.jsonSchema.jsonString == peopleSchemaText)
  }

  @Test(.timeLimit(.minutes(10))) func `a recursive schema reads back equal`() throws {
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Node",
        properties: [
          .init(name: "children", schema: .init(arrayOf: .init(referenceTo: "Node")), isOptional: true)
        ]),
      dependencies: [])
    #expect(try GenerationSchema(jsonSchema: schema.jsonSchema) == schema)
  }

  @Test(.timeLimit(.minutes(10))) func `JSONDecoder reads what JSONEncoder wrote`() throws {
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Order",
        properties: [
          .init(name: "id", schema: .init(type: Int.self, guides: [.range(1...999)])),
          .init(name: "lines", schema: .init(arrayOf: .init(referenceTo: "Line"), minimumElements: 1)),
        ]),
      dependencies: [
        DynamicGenerationSchema(
          name: "Line",
          properties: [
            .init(name: "sku", schema: .init(type: String.self, guides: [.pattern(##"^\d+$"##)])),
            .init(name: "count", schema: .init(type: Int.self)),
          ])
      ])
    let data = try JSONEncoder().encode(schema)
    #expect(try JSONDecoder().decode(GenerationSchema.self, from: data) == schema)
  }

  @Test(.timeLimit(.minutes(10)))
  func `JSONDecoder puts required properties first, then optional ones by name`()
    throws
  {
    let json = ##"""
      {"type": "object", "title": "Note", "additionalProperties": false,
       "properties": {"zeta": {"type": "string"}, "body": {"type": "string"}, "alpha": {"type": "boolean"},
                      "title": {"type": "string"}},
       "required": ["title", "body"]}
      """##
    let schema = try JSONDecoder().decode(GenerationSchema.self, from: Data(json.utf8))
    #expect(
      schema.jsonSchema.jsonString
        == ##"{"type":"object","title":"Note","properties":{"title":{"type":"string"},"body":{"type":"string"},"##
        + ##""alpha":{"type":"boolean"},"zeta":{"type":"string"}},"required":["title","body"],"##
        + ##""additionalProperties":false}"##)
  }

  @Test(.timeLimit(.minutes(10))) func `reading ignores keywords it does not know`() throws {
    let document = GeneratedContent(properties: [
      "type": "string", "format": "date", "default": "2024-01-01", "description": "A day",
    ])
    let schema = try GenerationSchema(jsonSchema: document)
    #expect(schema.jsonSchema.jsonString == ##"{"type":"string","description":"A day"}"##)
  }

  @Test(.timeLimit(.minutes(10))) func `a definition without a title takes its key as its name`() throws {
    let document = GeneratedContent(properties: [
      "$ref": "#/$defs/Flag",
      "$defs": GeneratedContent(properties: ["Flag": GeneratedContent(properties: ["type": "boolean"])]),
    ])
    let schema = try GenerationSchema(jsonSchema: document)
    #expect(schema.name == "Flag")
    #expect(
      schema.jsonSchema.jsonString
        == ##"{"$ref":"#/$defs/Flag","$defs":{"Flag":{"type":"boolean","title":"Flag"}}}"##)
  }

  @Test(.timeLimit(.minutes(10))) func `reading an unsupported type names its pointer`() throws {
    let document = GeneratedContent(properties: [
      "type": "object",
      "properties": GeneratedContent(properties: ["gap": GeneratedContent(properties: ["type": "null"])]),
    ])
    #expect(throws: GenerationSchema.SchemaError.self) { try GenerationSchema(jsonSchema: document) }
    do {
      _ = try GenerationSchema(jsonSchema: document)
    } catch let error as GenerationSchema.SchemaError {
      guard case .invalidJSONSchema(let pointer, let context) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(pointer == "#/properties/gap/type")
      #expect(
        context.debugDescription == ##"JSON Schema at #/properties/gap/type: type "null" is not supported"##)
    }
  }

  @Test(.timeLimit(.minutes(10))) func `reading checks the shape of keywords`() {
    let cases: [(GeneratedContent, String)] = [
      (GeneratedContent(properties: ["type": "array"]), "#"),
      (GeneratedContent(properties: ["type": "string", "enum": [1, 2]]), "#/enum/0"),
      (GeneratedContent(properties: ["type": "array", "items": "x"]), "#/items"),
      (GeneratedContent(properties: ["$ref": "#/definitions/A"]), "#/$ref"),
      (GeneratedContent(properties: ["description": "no type"]), "#"),
      (
        GeneratedContent(properties: [
          "type": "array", "items": GeneratedContent(properties: ["type": "string"]), "minItems": 1.5,
        ]), "#/minItems"
      ),
      (GeneratedContent(properties: ["type": "object", "required": ["ghost"]]), "#/required"),
    ]
    for (document, expectedPointer) in cases {
      #expect {
        try GenerationSchema(jsonSchema: document)
      } throws: { error in
        guard case .invalidJSONSchema(let pointer, _) = error as? GenerationSchema.SchemaError else {
          return false
        }
        return pointer == expectedPointer
      }
    }
  }

  @Test(.timeLimit(.minutes(10))) func `reading a dangling reference fails like building one`() {
    let document = GeneratedContent(properties: [
      "type": "array", "items": GeneratedContent(properties: ["$ref": "#/$defs/Missing"]),
    ])
    #expect(throws: GenerationSchema.SchemaError.self) { try GenerationSchema(jsonSchema: document) }
  }

  @Test(.timeLimit(.minutes(10))) func `JSONDecoder reports a bad schema as corrupted data`() {
    let json = ##"{"type": "integer", "minimum": 5, "maximum": 1}"##
    #expect {
      try JSONDecoder().decode(GenerationSchema.self, from: Data(json.utf8))
    } throws: { error in
      guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
      return context.underlyingError is GenerationSchema.SchemaError
        && context.debugDescription.contains("minimum 5 is greater than maximum 1")
    }
  }
}

extension GenerationSchemaDecodingTests {
  @Suite("reading a schema document is bounded in depth") struct DepthBound {
    @Test
    func `a schema document nested as deep as the parser allows is a typed error, even on a 512 KB stack`()
      throws
    {
      let depth = 4_999  // two JSON levels per schema level: 9,999 with the innermost
      let text =
        String(repeating: #"{"type":"array","items":"#, count: depth) + #"{"type":"string"}"#
        + String(repeating: "}", count: depth)
      let values = ValueBox([try GeneratedContent(json: text)])
      let outcome = DeadlineThread.run(stackSize: 512 << 10, deadline: .seconds(60)) { () -> String in
        values.contents.withLock { contents in
          do {
            _ = try GenerationSchema(jsonSchema: contents[0])
            return "read"
          } catch {
            return "\(error)".contains("nest more than 64 levels deep") ? "refused" : "\(error)"
          }
        }
      }
      values.contents.withLock { $0 = [] }
      #expect(outcome == "refused")
      // 60 levels is fine.
      let shallow =
        String(repeating: #"{"type":"array","items":"#, count: 60) + #"{"type":"string"}"#
        + String(repeating: "}", count: 60)
      #expect(throws: Never.self) { try GenerationSchema(jsonSchema: try GeneratedContent(json: shallow)) }
    }

    @Test func `a schema nested exactly 64 levels deep is read, 65 levels is refused`() throws {
      /// `levels` array schemas around a string: the root is level 0, the string level `levels`.
      func nested(_ levels: Int) throws -> GeneratedContent {
        try GeneratedContent(
          json: String(repeating: #"{"type":"array","items":"#, count: levels) + #"{"type":"string"}"#
            + String(repeating: "}", count: levels))
      }
      #expect(throws: Never.self) { try GenerationSchema(jsonSchema: try nested(64)) }
      let error = try #require(throws: (any Error).self) { try GenerationSchema(jsonSchema: try nested(65)) }
      #expect("\(error)".contains("nest more than 64 levels deep"))
      // The innermost schema, 65 `items` down, is the one named.
      #expect("\(error)".contains("#" + String(repeating: "/items", count: 65)))
    }
  }
}
