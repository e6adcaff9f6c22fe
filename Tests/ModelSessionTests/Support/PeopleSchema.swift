import Foundation
import ModelSession

/// A list of people, with a union and references between definitions.
func peopleSchema() throws -> GenerationSchema {
  let person = DynamicGenerationSchema(
    name: "Person",
    properties: [
      .init(name: "name", schema: .init(type: String.self, guides: [.pattern("^[A-Z]")])),
      .init(name: "role", schema: .init(name: "Role", anyOf: ["admin", "guest"])),
      .init(name: "pet", schema: .init(referenceTo: "Pet"), isOptional: true),
      .init(name: "score", schema: .init(type: Double.self, guides: [.range(0...1)])),
    ])
  let pet = DynamicGenerationSchema(
    name: "Pet",
    anyOf: [
      .init(name: "Cat", properties: [.init(name: "indoor", schema: .init(type: Bool.self))]),
      .init(type: String.self, guides: [.constant("none")]),
    ])
  return try GenerationSchema(
    root: DynamicGenerationSchema(
      arrayOf: .init(referenceTo: "Person"), minimumElements: 1, maximumElements: 10),
    dependencies: [person, pet])
}

let peopleSchemaText =
  ##"{"type":"array","items":{"$ref":"#/$defs/Person"},"minItems":1,"maxItems":10,"$defs":{"##
  + ##""Person":{"type":"object","title":"Person","properties":{"name":{"type":"string","pattern":"^[A-Z]"},"##
  + ##""role":{"type":"string","title":"Role","enum":["admin","guest"]},"pet":{"$ref":"#/$defs/Pet"},"##
  + ##""score":{"type":"number","minimum":0,"maximum":1}},"required":["name","role","score"],"##
  + ##""additionalProperties":false},"Pet":{"title":"Pet","anyOf":[{"type":"object","title":"Cat","##
  + ##""properties":{"indoor":{"type":"boolean"}},"required":["indoor"],"additionalProperties":false},"##
  + ##"{"type":"string","const":"none"}]}}}"##
