import ModelSession

/// Validating tool arguments against recursive schemas: `anyOf` over two
/// self-referring object branches with an invalid innermost value (which
/// doubled in time per level before validation was memoized), against the
/// same chain under a schema without `anyOf` as the baseline. The ratio stays
/// small and constant when validation is polynomial.
enum SchemaValidationBenchmark {
  static var registrations: [BenchmarkRegistration] {
    [
      .init(name: "schema/validate/anyOf-24-levels") { try make(depth: 24) },
      .init(name: "schema/validate/anyOf-10000-levels") { try make(depth: 10_000) },
    ]
  }

  static func make(depth: Int) throws -> BenchmarkCase {
    let left = DynamicGenerationSchema(
      name: "Left", properties: [.init(name: "next", schema: .init(referenceTo: "Tree"), isOptional: true)])
    let right = DynamicGenerationSchema(
      name: "Right",
      properties: [
        .init(name: "next", schema: .init(referenceTo: "Tree"), isOptional: true),
        .init(name: "flag", schema: .init(type: Bool.self), isOptional: true),
      ])
    let forking = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Tree", anyOf: [.init(referenceTo: "Left"), .init(referenceTo: "Right")]),
      dependencies: [left, right])
    let single = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Node",
        properties: [
          .init(name: "next", schema: .init(referenceTo: "Node"), isOptional: true),
          .init(name: "flag", schema: .init(type: Bool.self), isOptional: true),
        ]),
      dependencies: [])
    // The innermost object's flag is a string: no branch matches, at any level.
    let text =
      String(repeating: #"{"next":"#, count: depth - 1) + #"{"flag":"no"}"#
      + String(repeating: "}", count: depth - 1)
    let content = try GeneratedContent(json: text)
    return BenchmarkCase(
      name: "schema/validate/anyOf-\(depth)-levels",
      run: { Self.errorPathLength(forking, content) },
      baseline: .init(name: "without anyOf", run: { Self.errorPathLength(single, content) }),
      unit: BenchmarkUnit(name: "level", countPerOperation: depth))
  }

  private static func errorPathLength(_ schema: GenerationSchema, _ content: GeneratedContent) -> Int {
    do {
      try schema.validate(content)
      return 0
    } catch {
      return error.path.count
    }
  }
}
