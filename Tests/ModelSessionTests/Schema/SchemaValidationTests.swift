import ModelSession
import Testing

/// An order with nested arrays of objects, optional properties and guides.
private func orderSchema() throws -> GenerationSchema {
  let item = DynamicGenerationSchema(
    name: "Item",
    properties: [
      .init(name: "name", schema: .init(type: String.self)),
      .init(name: "quantity", schema: .init(type: Int.self, guides: [.range(1...99)])),
      .init(name: "tags", schema: .init(type: [String].self, guides: [.maximumCount(2)]), isOptional: true),
    ])
  return try GenerationSchema(
    root: DynamicGenerationSchema(
      name: "Order",
      properties: [
        .init(name: "id", schema: .init(type: Int.self)),
        .init(name: "items", schema: .init(arrayOf: .init(referenceTo: "Item"), minimumElements: 1)),
        .init(name: "status", schema: .init(name: "Status", anyOf: ["open", "closed"])),
        .init(
          name: "note", schema: .init(type: String.self, guides: [.pattern("^[a-z ]+$")]), isOptional: true),
        .init(
          name: "discount", schema: .init(type: Double.self, guides: [.range(0...0.5)]), isOptional: true),
        .init(name: "express", schema: .init(type: Bool.self)),
      ]),
    dependencies: [item])
}

private func item(
  _ name: String = "pen", quantity: any ConvertibleToGeneratedContent = 1
) -> GeneratedContent {
  GeneratedContent(properties: ["name": name, "quantity": quantity])
}

private func order(
  id: any ConvertibleToGeneratedContent = 7, items: [GeneratedContent] = [item()], status: String = "open",
  express: any ConvertibleToGeneratedContent = false
) -> GeneratedContent {
  GeneratedContent(properties: ["id": id, "items": items, "status": status, "express": express])
}

/// `content` with `extra` properties appended.
private func adding(_ extra: [(String, GeneratedContent)], to content: GeneratedContent) -> GeneratedContent {
  guard case .structure(let properties, let keys) = content.kind else { return content }
  return GeneratedContent(
    orderedProperties: keys.compactMap { key in properties[key].map { (key, $0) } } + extra)
}

/// The validation error for `content`, if any.
private func validationError(_ content: GeneratedContent) throws -> SchemaValidationError? {
  do {
    try orderSchema().validate(content)
    return nil
  } catch let error as SchemaValidationError {
    return error
  }
}

@Suite(.timeLimit(.minutes(10))) struct SchemaValidationTests {
  @Test(.timeLimit(.minutes(10)))
  func `valid content passes, with optional properties absent, present or null`()
    throws
  {
    let schema = try orderSchema()
    try schema.validate(order(items: [item(), item("ink", quantity: 99)]))
    let full = adding(
      [
        ("note", GeneratedContent("leave at the door")), ("discount", GeneratedContent(0.25)),
      ], to: order())
    try schema.validate(full)
    try schema.validate(adding([("note", GeneratedContent(kind: .null))], to: order()))
    let tagged = GeneratedContent(properties: ["name": "pen", "quantity": 2, "tags": ["blue", "gift"]])
    try schema.validate(order(items: [tagged]))
  }

  @Test(.timeLimit(.minutes(10))) func `a missing required property`() throws {
    let error = try #require(
      try validationError(order(items: [item(), GeneratedContent(properties: ["name": "x"])])))
    #expect(error == SchemaValidationError(path: "$.items[1]", reason: .missingProperty("quantity")))
    #expect(error.description == #"$.items[1]: expected property "quantity", found nothing"#)
  }

  @Test(.timeLimit(.minutes(10))) func `a property the schema does not list`() throws {
    let error = try #require(try validationError(adding([("color", GeneratedContent("red"))], to: order())))
    #expect(error == SchemaValidationError(path: "$", reason: .unknownProperty("color")))
  }

  @Test(.timeLimit(.minutes(10))) func `a value of the wrong type`() throws {
    let error = try #require(try validationError(order(id: "7")))
    #expect(
      error
        == SchemaValidationError(path: "$.id", reason: .typeMismatch(expected: "integer", found: "string")))
    #expect(error.description == "$.id: expected an integer, found string")
    let notAnObject = try #require(try validationError(GeneratedContent(["a", "b"])))
    #expect(
      notAnObject
        == SchemaValidationError(path: "$", reason: .typeMismatch(expected: "object", found: "array"))
    )
    let notABool = try #require(try validationError(order(express: 1)))
    #expect(
      notABool
        == SchemaValidationError(
          path: "$.express", reason: .typeMismatch(expected: "boolean", found: "number"))
    )
  }

  @Test(.timeLimit(.minutes(10))) func `an integer expected, a fraction found`() throws {
    let error = try #require(try validationError(order(items: [item(), item(), item(quantity: 2.5)])))
    #expect(error == SchemaValidationError(path: "$.items[2].quantity", reason: .notAnInteger(2.5)))
    #expect(error.description == "$.items[2].quantity: expected an integer, found 2.5")
  }

  @Test(.timeLimit(.minutes(10))) func `a string outside the allowed values`() throws {
    let error = try #require(try validationError(order(status: "pending")))
    #expect(
      error
        == SchemaValidationError(
          path: "$.status", reason: .notAllowed("pending", allowed: ["open", "closed"])))
    #expect(error.description == #"$.status: expected one of "open", "closed", found "pending""#)
  }

  @Test(.timeLimit(.minutes(10))) func `a string that does not match the pattern`() throws {
    let error = try #require(try validationError(adding([("note", GeneratedContent("Hello!"))], to: order())))
    #expect(
      error == SchemaValidationError(path: "$.note", reason: .patternMismatch("Hello!", pattern: "^[a-z ]+$"))
    )
  }

  @Test(.timeLimit(.minutes(10))) func `arrays that are too short or too long`() throws {
    let empty = try #require(try validationError(order(items: [])))
    #expect(empty == SchemaValidationError(path: "$.items", reason: .tooFewElements(count: 0, minimum: 1)))
    let tagged = GeneratedContent(properties: ["name": "pen", "quantity": 1, "tags": ["a", "b", "c"]])
    let long = try #require(try validationError(order(items: [item(), tagged])))
    #expect(
      long == SchemaValidationError(path: "$.items[1].tags", reason: .tooManyElements(count: 3, maximum: 2)))
    #expect(long.description == "$.items[1].tags: expected at most 2 elements, found 3 elements")
  }

  @Test(.timeLimit(.minutes(10))) func `numbers out of range`() throws {
    let high = try #require(try validationError(order(items: [item(quantity: 100)])))
    #expect(
      high == SchemaValidationError(path: "$.items[0].quantity", reason: .aboveMaximum(100, maximum: 99)))
    let low = try #require(try validationError(adding([("discount", GeneratedContent(-0.1))], to: order())))
    #expect(low == SchemaValidationError(path: "$.discount", reason: .belowMinimum(-0.1, minimum: 0)))
    #expect(low.description == "$.discount: expected a number ≥ 0, found -0.1")
  }

  @Test(.timeLimit(.minutes(10))) func `no anyOf branch matches`() throws {
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Pet",
        anyOf: [
          .init(name: "Cat", properties: [.init(name: "indoor", schema: .init(type: Bool.self))]),
          .init(type: String.self, guides: [.constant("none")]),
        ]),
      dependencies: [])
    try schema.validate(GeneratedContent("none"))
    try schema.validate(GeneratedContent(properties: ["indoor": true]))
    #expect(throws: SchemaValidationError(path: "$", reason: .noMatchingBranch(branches: 2))) {
      try schema.validate(GeneratedContent("dog"))
    }
    #expect(throws: SchemaValidationError(path: "$", reason: .noMatchingBranch(branches: 2))) {
      try schema.validate(GeneratedContent(properties: ["indoor": "yes"]))
    }
  }

  @Test(.timeLimit(.minutes(10))) func `a constant that differs`() throws {
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(type: String.self, guides: [.constant("yes")]), dependencies: [])
    #expect(throws: SchemaValidationError(path: "$", reason: .notConstant("no", expected: "yes"))) {
      try schema.validate(GeneratedContent("no"))
    }
  }

  @Test(.timeLimit(.minutes(10))) func `a recursive schema validates to any depth`() throws {
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Node",
        properties: [
          .init(name: "value", schema: .init(type: Int.self)),
          .init(name: "children", schema: .init(arrayOf: .init(referenceTo: "Node")), isOptional: true),
        ]),
      dependencies: [])
    let leaf = GeneratedContent(properties: ["value": 3])
    let bad = GeneratedContent(properties: ["value": "x"])
    try schema.validate(GeneratedContent(properties: ["value": 1, "children": [leaf, leaf]]))
    let tree = GeneratedContent(properties: [
      "value": 1, "children": [GeneratedContent(properties: ["value": 2, "children": [leaf, bad]])],
    ])
    #expect(
      throws: SchemaValidationError(
        path: "$.children[0].children[1].value", reason: .typeMismatch(expected: "integer", found: "string"))
    ) {
      try schema.validate(tree)
    }
  }

  @Test(.timeLimit(.minutes(10))) func `property names that are not identifiers are bracketed in the path`()
    throws
  {
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Form", properties: [.init(name: "first name", schema: .init(type: String.self))]),
      dependencies: [])
    #expect(
      throws: SchemaValidationError(
        path: #"$["first name"]"#, reason: .typeMismatch(expected: "string", found: "null"))
    ) {
      try schema.validate(GeneratedContent(properties: ["first name": GeneratedContent(kind: .null)]))
    }
  }

  @Test(.timeLimit(.minutes(10))) func `a schema read from JSON Schema validates the same way`() throws {
    let schema = try GenerationSchema(jsonSchema: orderSchema().jsonSchema)
    #expect(throws: SchemaValidationError(path: "$.items[0].quantity", reason: .notAnInteger(2.5))) {
      try schema.validate(order(items: [item(quantity: 2.5)]))
    }
  }
}
