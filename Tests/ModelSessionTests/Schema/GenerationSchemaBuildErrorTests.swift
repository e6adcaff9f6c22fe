import Foundation
import ModelSession
import Testing

private typealias SchemaError = GenerationSchema.SchemaError

/// The error thrown by building `root` with `dependencies`, if any.
private func buildError(
  _ root: DynamicGenerationSchema, _ dependencies: [DynamicGenerationSchema] = []
) -> SchemaError? {
  do {
    _ = try GenerationSchema(root: root, dependencies: dependencies)
    return nil
  } catch {
    return error as? SchemaError
  }
}

private func object(
  _ name: String, _ properties: [DynamicGenerationSchema.Property]
) -> DynamicGenerationSchema {
  DynamicGenerationSchema(name: name, properties: properties)
}

@Suite(.timeLimit(.minutes(10))) struct GenerationSchemaBuildErrorTests {
  @Test(.timeLimit(.minutes(10))) func `an undefined reference names the schema that holds it`() throws {
    let error = try #require(
      buildError(
        object(
          "Person",
          [
            .init(name: "home", schema: .init(referenceTo: "Adress")),
            .init(name: "work", schema: .init(referenceTo: "Office")),
          ])))
    guard case .undefinedReferences(let schema, let references, _) = error else {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(schema == "Person")
    #expect(references == ["Adress", "Office"])
    #expect(error.description == #"Schema "Person" refers to undefined schema "Adress", "Office""#)
  }

  @Test(.timeLimit(.minutes(10))) func `a dependency defined twice is a duplicate`() throws {
    let pet = object("Pet", [.init(name: "name", schema: .init(type: String.self))])
    let error = try #require(
      buildError(object("Owner", [.init(name: "pet", schema: .init(referenceTo: "Pet"))]), [pet, pet]))
    guard case .duplicateType(let schema, let type, _) = error else {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(schema == "Owner")
    #expect(type == "Pet")
  }

  @Test(.timeLimit(.minutes(10))) func `one name for two different inline schemas is a duplicate`() throws {
    let error = try #require(
      buildError(
        object(
          "Pair",
          [
            .init(name: "left", schema: .init(name: "Side", anyOf: ["a"])),
            .init(name: "right", schema: .init(name: "Side", anyOf: ["b"])),
          ])))
    #expect(
      error
        == .duplicateType(
          schema: "Pair", type: "Side",
          context: .init(debugDescription: #"Two different schemas are named "Side""#)))
  }

  @Test(.timeLimit(.minutes(10))) func `a property listed twice names the object`() throws {
    let error = try #require(
      buildError(
        object(
          "Point",
          [.init(name: "x", schema: .init(type: Int.self)), .init(name: "x", schema: .init(type: Int.self))]))
    )
    guard case .duplicateProperty(let schema, let property, _) = error else {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(schema == "Point")
    #expect(property == "x")
  }

  @Test(.timeLimit(.minutes(10))) func `empty choices name the schema`() throws {
    let noSchemas = try #require(
      buildError(DynamicGenerationSchema(name: "Nothing", anyOf: [DynamicGenerationSchema]())))
    let noStrings = try #require(buildError(DynamicGenerationSchema(name: "Nobody", anyOf: [String]())))
    guard case .emptyTypeChoices(let first, _) = noSchemas, case .emptyTypeChoices(let second, _) = noStrings
    else {
      Issue.record("unexpected \(noSchemas), \(noStrings)")
      return
    }
    #expect(first == "Nothing")
    #expect(second == "Nobody")
  }

  @Test(.timeLimit(.minutes(10))) func `guides that cannot hold are invalid, with the schema and the place`()
    throws
  {
    let cases: [(DynamicGenerationSchema, String)] = [
      (
        object(
          "Person", [.init(name: "age", schema: .init(type: Int.self, guides: [.minimum(5), .maximum(3)]))]),
        #"Schema "Person" at #/properties/age: minimum 5 is greater than maximum 3"#
      ),
      (
        object("Code", [.init(name: "value", schema: .init(type: String.self, guides: [.pattern("[a-")]))]),
        #"Schema "Code" at #/properties/value: pattern "[a-" is not a valid regular expression"#
      ),
      (
        object(
          "List",
          [
            .init(
              name: "items",
              schema: .init(arrayOf: .init(type: Bool.self), minimumElements: 3, maximumElements: 1))
          ]),
        #"Schema "List" at #/properties/items: minimum count 3 is greater than maximum count 1"#
      ),
      (
        object(
          "Bag", [.init(name: "things", schema: .init(type: [String].self, guides: [.minimumCount(-1)]))]),
        #"Schema "Bag" at #/properties/things: minimum count -1 is negative"#
      ),
      (
        object("Pick", [.init(name: "one", schema: .init(type: String.self, guides: [.anyOf([])]))]),
        #"Schema "Pick" at #/properties/one: the list of allowed values is empty"#
      ),
      (
        object(
          "Fixed",
          [.init(name: "one", schema: .init(type: String.self, guides: [.anyOf(["a"]), .constant("b")]))]),
        #"Schema "Fixed" at #/properties/one: constant "b" is not one of the allowed values"#
      ),
      (
        object("Ratio", [.init(name: "r", schema: .init(type: Double.self, guides: [.maximum(.infinity)]))]),
        #"Schema "Ratio" at #/properties/r: bound inf is not a finite number"#
      ),
    ]
    for (root, message) in cases {
      let error = try #require(buildError(root))
      guard case .invalidGuide = error else {
        Issue.record("unexpected \(error)")
        continue
      }
      #expect(error.description == message)
    }
  }

  @Test(.timeLimit(.minutes(10))) func `a dependency needs a name`() throws {
    let error = try #require(
      buildError(DynamicGenerationSchema(type: String.self), [DynamicGenerationSchema(type: Int.self)]))
    guard case .unnamedDependency = error else {
      Issue.record("unexpected \(error)")
      return
    }
  }

  @Test(.timeLimit(.minutes(10))) func `references that only lead to each other are circular`() throws {
    let first = DynamicGenerationSchema(name: "A", anyOf: [DynamicGenerationSchema(referenceTo: "B")])
    let second = DynamicGenerationSchema(
      name: "B", anyOf: [DynamicGenerationSchema(referenceTo: "A"), .init(type: Int.self)])
    let error = try #require(buildError(DynamicGenerationSchema(referenceTo: "A"), [first, second]))
    guard case .circularReference(let schema, _) = error else {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(schema == "A")
  }

  @Test(.timeLimit(.minutes(10))) func `decimal range guides build`() {
    #expect(
      buildError(
        object("Fine", [.init(name: "n", schema: .init(type: Decimal.self, guides: [.range(0...1)]))]))
        == nil)
  }
}
