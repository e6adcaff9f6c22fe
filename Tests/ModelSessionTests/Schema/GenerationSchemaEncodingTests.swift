import Foundation
import ModelSession
import Testing

@Suite(.timeLimit(.minutes(10))) struct GenerationSchemaEncodingTests {
  @Test(.timeLimit(.minutes(10))) func `an object writes its keys in the fixed order`() throws {
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "City", description: "A city",
        properties: [
          .init(name: "name", schema: .init(type: String.self)),
          .init(
            name: "population", description: "Inhabitants",
            schema: .init(type: Int.self, guides: [.minimum(0)]),
            isOptional: true),
          .init(name: "capital", schema: .init(type: Bool.self)),
        ]),
      dependencies: [])
    #expect(
      schema.jsonSchema.jsonString
        == ##"{"type":"object","title":"City","description":"A city","properties":{"name":{"type":"string"},"##
        + ##""population":{"type":"integer","description":"Inhabitants","minimum":0},"capital":{"type":"boolean"}},"##
        + ##""required":["name","capital"],"additionalProperties":false}"##)
    #expect(schema.name == "City")
    #expect(schema.description == "A city")
  }

  @Test(.timeLimit(.minutes(10))) func `references point into $defs, written in declared order`() throws {
    let schema = try peopleSchema()
    #expect(schema.jsonSchema.jsonString == peopleSchemaText)
    #expect(schema.name == "array")
  }

  @Test(.timeLimit(.minutes(10))) func `the same schema gives the same bytes`() throws {
    let first = try peopleSchema()
    let second = try peopleSchema()
    #expect(first == second)
    #expect(first.hashValue == second.hashValue)
    #expect(first.jsonSchema.jsonString == second.jsonSchema.jsonString)
  }

  @Test(.timeLimit(.minutes(10))) func `a root reference names the schema after its definition`() throws {
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(referenceTo: "Point"),
      dependencies: [
        DynamicGenerationSchema(
          name: "Point",
          properties: [
            .init(name: "x", schema: .init(type: Decimal.self)),
            .init(name: "y", schema: .init(type: Decimal.self)),
          ])
      ])
    #expect(schema.name == "Point")
    #expect(
      schema.jsonSchema.jsonString
        == ##"{"$ref":"#/$defs/Point","$defs":{"Point":{"type":"object","title":"Point","properties":{"##
        + ##""x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"],"additionalProperties":false}}}"##
    )
  }

  @Test(.timeLimit(.minutes(10))) func `a recursive root refers to itself as #`() throws {
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Node",
        properties: [
          .init(name: "value", schema: .init(type: Int.self)),
          .init(name: "children", schema: .init(arrayOf: .init(referenceTo: "Node"))),
        ]),
      dependencies: [])
    #expect(
      schema.jsonSchema.jsonString
        == ##"{"type":"object","title":"Node","properties":{"value":{"type":"integer"},"##
        + ##""children":{"type":"array","items":{"$ref":"#"}}},"required":["value","children"],"##
        + ##""additionalProperties":false}"##)
  }

  @Test(.timeLimit(.minutes(10))) func `array types take count and element guides`() throws {
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(
        type: [String].self, guides: [.count(2...3), .element(.anyOf(["a", "b"]))]),
      dependencies: [])
    #expect(
      schema.jsonSchema.jsonString
        == ##"{"type":"array","items":{"type":"string","enum":["a","b"]},"minItems":2,"maxItems":3}"##)
    let exact = try GenerationSchema(
      root: DynamicGenerationSchema(type: [Int].self, guides: [.count(2), .element(.range(1...6))]),
      dependencies: [])
    #expect(
      exact.jsonSchema.jsonString
        == ##"{"type":"array","items":{"type":"integer","minimum":1,"maximum":6},"minItems":2,"maxItems":2}"##
    )
  }

  @Test(.timeLimit(.minutes(10))) func `a later guide replaces an earlier one that sets the same thing`()
    throws
  {
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(type: Double.self, guides: [.minimum(1), .maximum(9.5), .minimum(2)]),
      dependencies: [])
    #expect(schema.jsonSchema.jsonString == ##"{"type":"number","minimum":2,"maximum":9.5}"##)
  }

  @Test(.timeLimit(.minutes(10))) func `a named schema used twice inline is written twice`() throws {
    let unit = DynamicGenerationSchema(name: "Unit", anyOf: ["c", "f"])
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Range", properties: [.init(name: "low", schema: unit), .init(name: "high", schema: unit)]),
      dependencies: [])
    #expect(
      schema.jsonSchema.jsonString
        == ##"{"type":"object","title":"Range","properties":{"low":{"type":"string","title":"Unit","enum":["c","f"]},"##
        + ##""high":{"type":"string","title":"Unit","enum":["c","f"]}},"required":["low","high"],"##
        + ##""additionalProperties":false}"##)
  }

  @Test(.timeLimit(.minutes(10))) func `a property description replaces its schema's`() throws {
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Box",
        properties: [
          .init(
            name: "size", description: "Edge length",
            schema: .init(name: "Size", description: "A size", anyOf: ["s", "l"]))
        ]),
      dependencies: [])
    #expect(
      schema.jsonSchema.jsonString
        == ##"{"type":"object","title":"Box","properties":{"size":{"type":"string","title":"Size","##
        + ##""description":"Edge length","enum":["s","l"]}},"required":["size"],"additionalProperties":false}"##
    )
  }

  @Test(.timeLimit(.minutes(10))) func `JSONEncoder with sorted keys gives standard JSON Schema`() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Tag",
        properties: [
          .init(name: "label", schema: .init(type: String.self)),
          .init(name: "weight", schema: .init(type: Double.self, guides: [.range(0...2.5)])),
        ]),
      dependencies: [])
    let text = String(decoding: try encoder.encode(schema), as: UTF8.self)
    #expect(
      text
        == ##"{"additionalProperties":false,"properties":{"label":{"type":"string"},"##
        + ##""weight":{"maximum":2.5,"minimum":0,"type":"number"}},"required":["label","weight"],"##
        + ##""title":"Tag","type":"object"}"##)
  }
}
