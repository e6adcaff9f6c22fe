import ModelSession
import Testing

/// A type with a fixed, recursive schema of its own.
private struct Category: GenerationSchemaProviding {
  static var generationSchema: GenerationSchema {
    do {
      return try GenerationSchema(
        root: DynamicGenerationSchema(
          name: "Category",
          properties: [
            .init(name: "label", schema: .init(type: String.self)),
            .init(name: "subcategories", schema: .init(arrayOf: .init(referenceTo: "Category"))),
          ]),
        dependencies: [])
    } catch {
      return String.generationSchema
    }
  }
}

@Suite(.timeLimit(.minutes(10))) struct GenerationSchemaProvidingTests {
  @Test(.timeLimit(.minutes(10)))
  func `a type's own schema is embedded, with a self reference moved into $defs`() throws {
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Shop",
        properties: [
          .init(name: "categories", schema: .init(type: [Category].self, guides: [.minimumCount(1)]))
        ]),
      dependencies: [])
    #expect(
      schema.jsonSchema.jsonString
        == ##"{"type":"object","title":"Shop","properties":{"categories":{"type":"array","##
        + ##""items":{"$ref":"#/$defs/Category"},"minItems":1}},"required":["categories"],"##
        + ##""additionalProperties":false,"$defs":{"Category":{"type":"object","title":"Category","##
        + ##""properties":{"label":{"type":"string"},"subcategories":{"type":"array","##
        + ##""items":{"$ref":"#/$defs/Category"}}},"required":["label","subcategories"],"##
        + ##""additionalProperties":false}}}"##)
    let leaf = GeneratedContent(properties: ["label": "pens", "subcategories": [GeneratedContent]()])
    let content = GeneratedContent(properties: [
      "categories": [GeneratedContent(properties: ["label": "office", "subcategories": [leaf]])]
    ])
    try schema.validate(content)
    #expect(try GenerationSchema(jsonSchema: schema.jsonSchema) == schema)
  }

  @Test(.timeLimit(.minutes(10))) func `nested array types nest their items`() throws {
    let schema = try GenerationSchema(root: DynamicGenerationSchema(type: [[Int]].self), dependencies: [])
    #expect(
      schema.jsonSchema.jsonString
        == #"{"type":"array","items":{"type":"array","items":{"type":"integer"}}}"#)
    #expect(throws: SchemaValidationError(path: "$[1][0]", reason: .notAnInteger(0.5))) {
      try schema.validate(GeneratedContent([[1, 2], [0.5]] as [[Double]]))
    }
  }

  @Test(.timeLimit(.minutes(10))) func `a response format takes the schema's name`() throws {
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Answer", properties: [.init(name: "text", schema: .init(type: String.self))]),
      dependencies: [])
    #expect(Transcript.ResponseFormat(schema: schema).name == "Answer")
  }

  @Test(.timeLimit(.minutes(10))) func `a root named like a type's definition is a duplicate`() throws {
    let root = DynamicGenerationSchema(
      name: "Category", properties: [.init(name: "children", schema: .init(type: [Category].self))])
    #expect {
      try GenerationSchema(root: root, dependencies: [])
    } throws: { error in
      guard case .duplicateType(_, let type, _) = error as? GenerationSchema.SchemaError else { return false }
      return type == "Category"
    }
  }
}
