import Foundation
import ModelSession
import TestSupport
import Testing

/// Seeded schemas and transcripts encoded again and again, in this process
/// and in child processes (each with its own hash seed): `StableJSONEncoder`
/// gives the same bytes every time, a plain `JSONEncoder` does not.
@Suite("Stable bytes across encodes and processes", .timeLimit(.minutes(10)))
struct StableBytesTests {
  /// Set in a child process: where it writes the bytes of its encodes.
  static let outputVariable = "CONTEXTKIT_STABLE_BYTES_OUTPUT"
  static let childTest = "every seeded schema and transcript gives the same bytes in every encode"

  /// An object schema with properties in a seeded order, some nested.
  static func schema(_ random: inout SeededGenerator, depth: Int) -> DynamicGenerationSchema {
    let names = ["zone", "alpha", "count", "beta", "title", "kind", "notes", "id", "when"]
    let count = 2 + random.next(below: 5)
    var chosen: [String] = []
    while chosen.count < count {
      let name = random.pick(names)
      if !chosen.contains(name) { chosen.append(name) }
    }
    return DynamicGenerationSchema(
      name: "Object\(depth)x\(random.next(below: 1_000))",
      description: random.chance(0.5) ? "A thing of depth \(depth)" : nil,
      properties: chosen.map { name in
        let schema: DynamicGenerationSchema
        switch random.next(below: depth > 0 ? 6 : 4) {
        case 0: schema = DynamicGenerationSchema(type: String.self)
        case 1: schema = DynamicGenerationSchema(type: Int.self, guides: [.range(-3...9)])
        case 2:
          schema = DynamicGenerationSchema(name: "Choice\(random.next(below: 100))", anyOf: ["a", "b", "c"])
        case 3: schema = DynamicGenerationSchema(type: Bool.self)
        case 4: schema = DynamicGenerationSchema(arrayOf: Self.schema(&random, depth: depth - 1))
        default: schema = Self.schema(&random, depth: depth - 1)
        }
        return .init(
          name: name, description: random.chance(0.3) ? "about \(name)" : nil, schema: schema,
          isOptional: random.chance(0.4))
      })
  }

  /// Metadata with several keys, so that a hash-ordered encoding shows.
  static func metadata(_ random: inout SeededGenerator) -> [String: GeneratedContent] {
    var metadata: [String: GeneratedContent] = [:]
    for index in 0..<(2 + random.next(below: 4)) {
      metadata["key\(index)\(random.next(below: 100))"] = GeneratedContent(kind: .number(Double(index)))
    }
    return metadata
  }

  static func transcript(_ random: inout SeededGenerator, schema: GenerationSchema) -> Transcript {
    var entries: [Transcript.Entry] = [
      .instructions(
        Transcript.Instructions(
          id: "i", segments: [.text(.init(id: "i1", content: "Instructions \(random.next(below: 100))"))],
          toolDefinitions: [
            Transcript.ToolDefinition(name: "lookup", description: "Looks up", parameters: schema)
          ]))
    ]
    for turn in 0..<(1 + random.next(below: 4)) {
      entries.append(
        .prompt(
          Transcript.Prompt(
            id: "p\(turn)", segments: [.text(.init(id: "p\(turn)s", content: "Question \(turn)"))],
            options: GenerationOptions(
              temperature: random.chance(0.5) ? 0.5 : nil, maximumResponseTokens: 64),
            responseFormat: random.chance(0.3) ? Transcript.ResponseFormat(schema: schema) : nil)))
      if random.chance(0.5) {
        entries.append(
          .toolCalls(
            Transcript.ToolCalls(
              id: "t\(turn)",
              [
                Transcript.ToolCall(
                  id: "c\(turn)", toolName: "lookup", arguments: GeneratedContent(properties: ["q": "x"]),
                  metadata: metadata(&random))
              ])))
        entries.append(
          .toolOutput(
            Transcript.ToolOutput(
              id: "c\(turn)", toolName: "lookup", segments: [.text(.init(id: "o\(turn)", content: "found"))],
              metadata: metadata(&random))))
      }
      entries.append(
        .response(
          Transcript.Response(
            id: "r\(turn)", assetIDs: [],
            segments: [.text(.init(id: "r\(turn)s", content: "Answer \(turn)"))],
            metadata: metadata(&random))))
    }
    return Transcript(entries: entries)
  }

  /// The seeded fixtures: 20 schemas and a transcript around each.
  static func fixtures() throws -> (schemas: [GenerationSchema], transcripts: [Transcript]) {
    var random = SeededGenerator(seed: 14)
    var schemas: [GenerationSchema] = []
    var transcripts: [Transcript] = []
    for _ in 0..<20 {
      let schema = try GenerationSchema(root: schema(&random, depth: 2), dependencies: [])
      schemas.append(schema)
      transcripts.append(transcript(&random, schema: schema))
    }
    return (schemas, transcripts)
  }

  /// Every fixture's bytes from `StableJSONEncoder` and from a plain `JSONEncoder`.
  static func encodings() throws -> (stable: [Data], plain: [Data]) {
    let (schemas, transcripts) = try fixtures()
    let stable =
      try schemas.map { try StableJSONEncoder().encode($0) }
      + transcripts.map { try StableJSONEncoder().encode($0) }
    let plain =
      try schemas.map { try JSONEncoder().encode($0) } + transcripts.map { try JSONEncoder().encode($0) }
    return (stable, plain)
  }

  @Test func `every seeded schema and transcript gives the same bytes in every encode`() throws {
    let (schemas, transcripts) = try Self.fixtures()
    for schema in schemas {
      try EncodingStability.check { try StableJSONEncoder().encode(schema) }
      #expect(try StableJSONEncoder().encode(schema) == Data(schema.jsonSchema.jsonString.utf8))
    }
    for transcript in transcripts {
      try EncodingStability.check(repetitions: 8) { try StableJSONEncoder().encode(transcript) }
      // Decodes to what the transcript's sorted-key form decodes to.
      #expect(
        try Transcript(jsonData: StableJSONEncoder().encode(transcript))
          == Transcript(jsonData: transcript.jsonData()))
    }
    if let path = ProcessInfo.processInfo.environment[Self.outputVariable] {
      let (stable, plain) = try Self.encodings()
      let record = ChildEncodings(stable: stable, plain: plain)
      try JSONEncoder().encode(record).write(to: URL(fileURLWithPath: path))
    }
  }

  @Test func `a plain JSONEncoder fails the check on a transcript`() throws {
    let transcript = try TranscriptCodingTests.sample()
    let error = try #require(throws: EncodingStabilityError.self) {
      try EncodingStability.check { try JSONEncoder().encode(transcript) }
    }
    #expect(error.first != error.differing)
    #expect(error.first.prefix(error.offset) == error.differing.prefix(error.offset))
    #expect("\(error)".contains("at byte \(error.offset)"))
    // The documented one-call forms pass.
    try EncodingStability.check { try transcript.jsonData() }
    try EncodingStability.check { try StableJSONEncoder().encode(transcript) }
  }

  @Test(.timeLimit(.minutes(10))) func `child processes give the same bytes, a plain JSONEncoder does not`()
    throws
  {
    #expect(ProcessInfo.processInfo.environment[Self.outputVariable] == nil)
    let (stable, plain) = try Self.encodings()
    let temporary = try TemporaryFolder(named: "stable-bytes")
    defer { temporary.remove() }
    let folder = temporary.url
    var plainRuns = [plain]
    for child in 0..<3 {
      let output = folder.appendingPathComponent("child\(child).json")
      try runChildTest(writingTo: output)
      let record = try JSONDecoder().decode(ChildEncodings.self, from: Data(contentsOf: output))
      #expect(record.stable.count == stable.count)
      for (index, bytes) in record.stable.enumerated() where index < stable.count {
        #expect(bytes == stable[index], "fixture \(index) differs in child \(child)")
      }
      plainRuns.append(record.plain)
    }
    // The premise: without options, JSONEncoder's order follows each process's hash seed.
    #expect(Set(plainRuns).count > 1)
  }

  /// Runs this test bundle in a child process, only the test that writes its
  /// encodes, without deterministic hashing.
  private func runChildTest(writingTo output: URL) throws {
    let executable = try #require(Bundle.main.executableURL)
    let process = Process()
    process.executableURL = executable
    process.arguments = ["--testing-library", "swift-testing", "--filter", Self.childTest]
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "SWIFT_DETERMINISTIC_HASHING")
    environment[Self.outputVariable] = output.path
    process.environment = environment
    let log = output.deletingPathExtension().appendingPathExtension("log")
    try Data().write(to: log)
    let handle = try FileHandle(forWritingTo: log)
    defer { try? handle.close() }
    process.standardOutput = handle
    process.standardError = handle
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    try process.run()
    if finished.wait(timeout: .now() + 120) == .timedOut {
      process.terminate()
      Issue.record("the child test did not finish in 120 s")
      return
    }
    process.waitUntilExit()
    let transcript = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    #expect(process.terminationStatus == 0, "child test failed:\n\(transcript.suffix(2_000))")
  }
}

/// What a child process wrote: its encodes, in fixture order.
struct ChildEncodings: Codable {
  var stable: [Data]
  var plain: [Data]
}
