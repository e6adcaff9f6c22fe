import ModelSession
import Synchronization
import TestSupport
import Testing

/// `Node { next: Node? }`: an object whose optional property refers to the schema itself.
private func nodeSchema() throws -> GenerationSchema {
  try GenerationSchema(
    root: DynamicGenerationSchema(
      name: "Node",
      properties: [.init(name: "next", schema: .init(referenceTo: "Node"), isOptional: true)]),
    dependencies: [])
}

/// `Tree = anyOf(Left { next: Tree? }, Right { next: Tree?, flag: Bool? })`: two
/// self-referring object branches, which a naive validator tries in every combination.
private func forkingSchema() throws -> GenerationSchema {
  let left = DynamicGenerationSchema(
    name: "Left", properties: [.init(name: "next", schema: .init(referenceTo: "Tree"), isOptional: true)])
  let right = DynamicGenerationSchema(
    name: "Right",
    properties: [
      .init(name: "next", schema: .init(referenceTo: "Tree"), isOptional: true),
      .init(name: "flag", schema: .init(type: Bool.self), isOptional: true),
    ])
  return try GenerationSchema(
    root: DynamicGenerationSchema(
      name: "Tree", anyOf: [.init(referenceTo: "Left"), .init(referenceTo: "Right")]),
    dependencies: [left, right])
}

/// `{"next":{"next":…{"next":innermost}…}}`, `depth` objects deep, parsed as a server's arguments would be.
private func chain(depth: Int, innermost: String = "{}") throws -> GeneratedContent {
  let text =
    String(repeating: #"{"next":"#, count: depth - 1) + innermost + String(repeating: "}", count: depth - 1)
  return try GeneratedContent(json: text)
}

@Suite("schema validation is bounded in stack and time", .timeLimit(.minutes(10)))
struct SchemaValidationBoundsTests {
  @Test func `10,000 levels of a self-referring schema validate on a 512 KB stack`() throws {
    let schema = try nodeSchema()
    // The values live in a box the test empties afterwards, so that they are
    // released on the test's thread and not at the small thread's exit.
    let values = ValueBox([try chain(depth: 10_000), try chain(depth: 10_000, innermost: #"{"next":5}"#)])
    let outcome = DeadlineThread.run(stackSize: 512 << 10, deadline: .seconds(60)) { () -> [String] in
      values.contents.withLock { contents in
        contents.map { value in
          do throws(SchemaValidationError) {
            try schema.validate(value)
            return "valid"
          } catch {
            return error.path.count == 1 + 5 * 10_000 ? "\(error.reason)" : "wrong path \(error.path.count)"
          }
        }
      }
    }
    values.contents.withLock { $0 = [] }
    #expect(outcome == ["valid", #"typeMismatch(expected: "object", found: "number")"#])
  }

  @Test func `anyOf over two recursive branches with an invalid innermost value is not exponential`() throws {
    let schema = try forkingSchema()
    // 24 levels took 24 s (2^24 branch combinations) before; memoized, each
    // (schema node, value) pair is checked once: 5 schema nodes × 24 values.
    let outcome = DeadlineThread.run(deadline: .seconds(20)) { () -> String? in
      do {
        try schema.validate(try chain(depth: 24, innermost: #"{"next":{"flag":"no"}}"#))
        return nil
      } catch let error as SchemaValidationError {
        return error.description
      } catch {
        return "\(error)"
      }
    }
    #expect(outcome == "$: expected a value matching one of 2 choices, found a value matching none")
    // And a valid value 2,000 levels deep, where the first branch always matches.
    let valid = try chain(depth: 2_000, innermost: #"{"flag":true}"#)
    #expect(throws: Never.self) { try schema.validate(valid) }
  }

  @Test func `errors name the first failing property in declared order, as before`() throws {
    let schema = try forkingSchema()
    let content = try GeneratedContent(json: #"{"next":{"flag":true,"next":{"extra":1}}}"#)
    #expect(throws: SchemaValidationError(path: "$", reason: .noMatchingBranch(branches: 2))) {
      try schema.validate(content)
    }
    let node = try nodeSchema()
    #expect(throws: SchemaValidationError(path: "$.next.next", reason: .unknownProperty("extra"))) {
      try node.validate(try GeneratedContent(json: #"{"next":{"next":{"extra":1}}}"#))
    }
    #expect(
      throws: SchemaValidationError(path: "$.next", reason: .typeMismatch(expected: "object", found: "array"))
    ) {
      try node.validate(try GeneratedContent(json: #"{"next":[]}"#))
    }
  }
}
