import ModelSession
import TestSupport
import Testing

/// Random schemas (with recursive references and `anyOf`) and random values,
/// checked against an independent reference: a plain recursive reading of the
/// schema's JSON Schema document, small enough to trust by reading it.
@Suite("schema validation fuzz", .timeLimit(.minutes(20)))
struct SchemaValidationFuzzTests {
  /// A random schema of at most `depth` levels; references point to the definitions N0, N1, N2.
  private static func schema(_ random: inout SeededGenerator, depth: Int) -> DynamicGenerationSchema {
    let leaf = depth <= 0
    switch random.next(below: leaf ? 5 : 9) {
    case 0: return DynamicGenerationSchema(type: String.self)
    case 1: return DynamicGenerationSchema(type: Int.self, guides: [.range(-5...5)])
    case 2: return DynamicGenerationSchema(type: Double.self)
    case 3: return DynamicGenerationSchema(type: Bool.self)
    case 4: return DynamicGenerationSchema(name: "Choice\(random.next(below: 1000))", anyOf: ["a", "b"])
    case 5:
      let minimum = random.next(below: 2)
      return DynamicGenerationSchema(
        arrayOf: schema(&random, depth: depth - 1), minimumElements: minimum == 0 ? nil : minimum,
        maximumElements: random.next(below: 2) == 0 ? nil : 3)
    case 6:
      return DynamicGenerationSchema(
        name: "Both\(random.next(below: 1000))",
        anyOf: [schema(&random, depth: depth - 1), schema(&random, depth: depth - 1)])
    case 7: return DynamicGenerationSchema(referenceTo: "N\(random.next(below: 3))")
    default:
      let count = 1 + random.next(below: 3)
      return DynamicGenerationSchema(
        name: "Object\(random.next(below: 1000))",
        properties: (0..<count).map { index in
          .init(
            name: ["a", "b", "c"][index], schema: schema(&random, depth: depth - 1),
            isOptional: random.next(below: 2) == 0)
        })
    }
  }

  /// Three recursive definitions: each an object whose properties may refer to any of them.
  private static func definitions(_ random: inout SeededGenerator) -> [DynamicGenerationSchema] {
    (0..<3).map { index in
      DynamicGenerationSchema(
        name: "N\(index)",
        properties: [
          .init(name: "next", schema: .init(referenceTo: "N\(random.next(below: 3))"), isOptional: true),
          .init(name: "value", schema: schema(&random, depth: 1), isOptional: random.next(below: 2) == 0),
        ])
    }
  }

  /// A random JSON value, biased towards the shapes the schemas use.
  private static func value(_ random: inout SeededGenerator, depth: Int) -> GeneratedContent {
    switch random.next(below: depth <= 0 ? 6 : 9) {
    case 0: return GeneratedContent(kind: .null)
    case 1: return GeneratedContent(kind: .bool(random.next(below: 2) == 0))
    case 2: return GeneratedContent(kind: .number(Double(random.next(below: 13)) - 6))
    case 3: return GeneratedContent(kind: .number(0.5))
    case 4: return GeneratedContent(kind: .string(["a", "b", "x"][random.next(below: 3)]))
    case 5: return GeneratedContent(kind: .string(""))
    case 6:
      return GeneratedContent(
        kind: .array((0..<random.next(below: 4)).map { _ in value(&random, depth: depth - 1) }))
    default:
      let keys = ["a", "b", "c", "next", "value", "d"].filter { _ in random.next(below: 3) != 0 }
      return GeneratedContent(orderedProperties: keys.map { ($0, value(&random, depth: depth - 1)) })
    }
  }

  @Test(arguments: [UInt64(1), 2, 3, 4])
  func `verdicts agree with a reference reading of the JSON Schema`(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    var checked = 0
    var valid = 0
    let clock = ContinuousClock()
    let end = clock.now + .seconds(5)
    while checked < 3_000 && clock.now < end {
      let root = Self.schema(&random, depth: 3)
      guard let schema = try? GenerationSchema(root: root, dependencies: Self.definitions(&random)) else {
        continue
      }
      let reference = ReferenceValidator(document: schema.jsonSchema)
      for _ in 0..<10 {
        let content = Self.value(&random, depth: 4)
        let expected = reference.accepts(content)
        do {
          try schema.validate(content)
          #expect(expected, "seed \(seed): \(schema.jsonSchema.jsonString) accepted \(content.jsonString)")
          valid += 1
        } catch {
          #expect(
            !expected, "seed \(seed): \(schema.jsonSchema.jsonString) refused \(content.jsonString): \(error)"
          )
          #expect(error.path.hasPrefix("$"))
        }
        checked += 1
      }
    }
    #expect(checked >= 500)
    #expect(valid > 0)
  }
}

/// A plain recursive JSON Schema check over the subset `GenerationSchema` writes.
private struct ReferenceValidator {
  let document: GeneratedContent

  func accepts(_ value: GeneratedContent) -> Bool {
    accepts(value, document, depth: 0)
  }

  private func accepts(_ value: GeneratedContent, _ schema: GeneratedContent, depth: Int) -> Bool {
    guard depth < 200 else { return false }
    if case .string(let reference)? = schema[property: "$ref"]?.kind {
      if reference == "#" { return accepts(value, document, depth: depth + 1) }
      let name = String(reference.dropFirst("#/$defs/".count))
      guard let target = document[property: "$defs"]?[property: name] else { return false }
      return accepts(value, target, depth: depth + 1)
    }
    if case .array(let branches)? = schema[property: "anyOf"]?.kind {
      return branches.contains { accepts(value, $0, depth: depth + 1) }
    }
    guard case .string(let type)? = schema[property: "type"]?.kind else { return false }
    switch (type, value.kind) {
    case ("string", .string(let text)):
      if case .array(let choices)? = schema[property: "enum"]?.kind {
        return choices.contains(GeneratedContent(kind: .string(text)))
      }
      if case .string(let constant)? = schema[property: "const"]?.kind { return text == constant }
      return true
    case ("integer", .number(let number)):
      return number.rounded() == number && inRange(number, schema)
    case ("number", .number(let number)):
      return inRange(number, schema)
    case ("boolean", .bool):
      return true
    case ("array", .array(let elements)):
      if case .number(let minimum)? = schema[property: "minItems"]?.kind, Double(elements.count) < minimum {
        return false
      }
      if case .number(let maximum)? = schema[property: "maxItems"]?.kind, Double(elements.count) > maximum {
        return false
      }
      guard let items = schema[property: "items"] else { return false }
      return elements.allSatisfy { accepts($0, items, depth: depth + 1) }
    case ("object", .structure(let properties, let keys)):
      var required: [String] = []
      if case .array(let names)? = schema[property: "required"]?.kind {
        required = names.compactMap { if case .string(let name) = $0.kind { name } else { nil } }
      }
      guard let declared = schema[property: "properties"],
        case .structure(let declaredProperties, _) = declared.kind
      else { return keys.isEmpty }
      for name in required where properties[name] == nil { return false }
      for key in keys {
        guard let propertySchema = declaredProperties[key], let propertyValue = properties[key] else {
          return false
        }
        if !required.contains(key), case .null = propertyValue.kind { continue }
        if !accepts(propertyValue, propertySchema, depth: depth + 1) { return false }
      }
      return true
    default:
      return false
    }
  }

  private func inRange(_ number: Double, _ schema: GeneratedContent) -> Bool {
    if case .number(let minimum)? = schema[property: "minimum"]?.kind, number < minimum { return false }
    if case .number(let maximum)? = schema[property: "maximum"]?.kind, number > maximum { return false }
    return true
  }
}
