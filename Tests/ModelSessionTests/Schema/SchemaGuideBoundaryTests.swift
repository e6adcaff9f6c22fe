import ModelSession
import Testing

/// `{ count: Int 2...5, ratio: Double 0.25...0.75, tags: [String] 2...3 }`: every
/// guide's bounds are included ("at least", "at most", `minItems`, `maxItems`).
private func boundedSchema() throws -> GenerationSchema {
  try GenerationSchema(
    root: DynamicGenerationSchema(
      name: "Bounded",
      properties: [
        .init(name: "count", schema: .init(type: Int.self, guides: [.minimum(2), .maximum(5)])),
        .init(name: "ratio", schema: .init(type: Double.self, guides: [.range(0.25...0.75)])),
        .init(name: "tags", schema: .init(type: [String].self, guides: [.count(2...3)])),
      ]),
    dependencies: [])
}

private func value(
  count: any ConvertibleToGeneratedContent = 3, ratio: any ConvertibleToGeneratedContent = 0.5,
  tags: [String] = ["a", "b"]
) -> GeneratedContent {
  GeneratedContent(properties: ["count": count, "ratio": ratio, "tags": tags])
}

/// The validation error for `content`, or nil when it is valid.
private func validationError(_ content: GeneratedContent) throws -> SchemaValidationError? {
  do {
    try boundedSchema().validate(content)
    return nil
  } catch let error as SchemaValidationError {
    return error
  }
}

@Suite("Schema guide bounds are inclusive", .timeLimit(.minutes(10))) struct SchemaGuideBoundaryTests {
  @Test func `a number exactly at its minimum or maximum is valid`() throws {
    #expect(try validationError(value(count: 2)) == nil)
    #expect(try validationError(value(count: 5)) == nil)
    #expect(try validationError(value(ratio: 0.25)) == nil)
    #expect(try validationError(value(ratio: 0.75)) == nil)
  }

  @Test func `a number one past its minimum or maximum is refused, naming the bound`() throws {
    #expect(
      try validationError(value(count: 1))
        == SchemaValidationError(path: "$.count", reason: .belowMinimum(1, minimum: 2)))
    #expect(
      try validationError(value(count: 6))
        == SchemaValidationError(path: "$.count", reason: .aboveMaximum(6, maximum: 5)))
    // The nearest Doubles outside the range.
    let under = 0.25.nextDown
    let over = 0.75.nextUp
    #expect(
      try validationError(value(ratio: under))
        == SchemaValidationError(path: "$.ratio", reason: .belowMinimum(under, minimum: 0.25)))
    #expect(
      try validationError(value(ratio: over))
        == SchemaValidationError(path: "$.ratio", reason: .aboveMaximum(over, maximum: 0.75)))
  }

  @Test func `an array exactly at its minItems or maxItems is valid`() throws {
    #expect(try validationError(value(tags: ["a", "b"])) == nil)
    #expect(try validationError(value(tags: ["a", "b", "c"])) == nil)
  }

  @Test func `an array one element past its minItems or maxItems is refused`() throws {
    #expect(
      try validationError(value(tags: ["a"]))
        == SchemaValidationError(path: "$.tags", reason: .tooFewElements(count: 1, minimum: 2)))
    #expect(
      try validationError(value(tags: ["a", "b", "c", "d"]))
        == SchemaValidationError(path: "$.tags", reason: .tooManyElements(count: 4, maximum: 3)))
  }
}
