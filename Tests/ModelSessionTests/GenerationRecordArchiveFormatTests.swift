import Foundation
import ModelSession
import Testing

/// Hand-built records for the archive's format: tool lists that change, an
/// instructions entry rebuilt with new segment ids (as the session does each
/// generation) and rewritten under its id, and a prompt rewritten under its id
/// and later sent in its first version again.
private enum HandBuilt {
  static func schema(_ name: String, _ properties: [String]) -> GenerationSchema {
    (try? GenerationSchema(
      root: DynamicGenerationSchema(
        name: name,
        properties: properties.map { .init(name: $0, schema: DynamicGenerationSchema(type: String.self)) }),
      dependencies: [])) ?? String.generationSchema
  }

  static let weather = Transcript.ToolDefinition(
    name: "weather", description: "The weather in a city.", parameters: schema("Weather", ["city"]))
  static let search = Transcript.ToolDefinition(
    name: "search", description: "Searches the manual.", parameters: schema("Search", ["query"]))
  /// `weather` again, with another schema.
  static let weatherByDay = Transcript.ToolDefinition(
    name: "weather", description: "The weather in a city.", parameters: schema("Weather", ["city", "day"]))

  static let base = "You are terse."
  static let catalog = "Skills:\n- reviewing-sql (on demand): reviews SQL."
  static let rules = "Rules are on: never guess a city."

  static func instructions(
    _ segmentIDs: [String], _ texts: [String], tools: [Transcript.ToolDefinition],
    extra: [Transcript.Segment] = []
  ) -> Transcript.Instructions {
    Transcript.Instructions(
      id: "instructions",
      segments: zip(segmentIDs, texts).map { .text(Transcript.TextSegment(id: $0, content: $1)) } + extra,
      toolDefinitions: tools)
  }

  static func prompt(_ id: String, _ text: String) -> Transcript.Entry {
    .prompt(
      Transcript.Prompt(id: id, segments: [.text(Transcript.TextSegment(id: "\(id)-s", content: text))]))
  }

  static func response(_ id: String, _ text: String) -> Transcript.Entry {
    .response(
      Transcript.Response(
        id: id, assetIDs: [], segments: [.text(Transcript.TextSegment(id: "\(id)-s", content: text))]))
  }

  static func record(
    turn: Int, instructions: Transcript.Instructions?, history: [Transcript.Entry],
    window: [Transcript.Entry], tools: [Transcript.ToolDefinition], output: [Transcript.Entry],
    schema: GenerationSchema? = nil, usage: GenerationUsage = .zero, notes: [GenerationNote] = [],
    outcome: GenerationRecord.Outcome = .completed
  ) -> GenerationRecord {
    GenerationRecord(
      requestID: UUID(), turnIndex: turn, round: 0,
      date: Date(timeIntervalSince1970: 1_800_000_000 + Double(turn)),
      storedHistory: Transcript(entries: history),
      stages: [.init(name: "rollingWindow", transcript: Transcript(entries: window))],
      sentTranscript: Transcript(entries: window), instructions: instructions, toolDefinitions: tools,
      generationOptions: GenerationOptions(), contextOptions: ContextOptions(), schema: schema,
      output: output,
      usage: usage, notes: notes, outcome: outcome)
  }

  static var records: [GenerationRecord] {
    let first = instructions(["s1", "s2"], [base, catalog], tools: [weather, search])
    let second = instructions(["s3", "s4"], [base, catalog], tools: [weather, search])
    let structure = Transcript.Segment.structure(
      Transcript.StructuredSegment(
        id: "s7", source: "profile",
        content: GeneratedContent(
          kind: .structure(
            properties: ["city": GeneratedContent(kind: .string("Oslo"))], orderedKeys: ["city"]))))
    let third = instructions(
      ["s5", "s6"], [base, rules], tools: [weatherByDay, search], extra: [structure])
    let p0 = prompt("p0", "What is the weather?")
    let r0 = response("r0", "Which city?")
    let p1 = prompt("p1", "Oslo.")
    let p1Rewritten = prompt("p1", "Oslo, tomorrow.")
    let call = Transcript.ToolCall(
      id: "c1", toolName: "weather",
      arguments: GeneratedContent(
        kind: .structure(properties: ["city": GeneratedContent(kind: .string("Oslo"))], orderedKeys: ["city"])
      ))
    let calls = Transcript.Entry.toolCalls(Transcript.ToolCalls(id: "calls1", [call]))
    let output = Transcript.Entry.toolOutput(
      Transcript.ToolOutput(
        id: "c1", toolName: "weather", segments: [.text(Transcript.TextSegment(id: "o1", content: "Rain."))]))
    return [
      record(
        turn: 0, instructions: first, history: [.instructions(first), p0],
        window: [.instructions(first), p0],
        tools: [weather, search], output: [r0]),
      record(
        turn: 1, instructions: second, history: [.instructions(second), p0, r0, p1],
        window: [.instructions(second), p1], tools: [weather, search], output: [calls],
        schema: schema("Answer", ["text"])),
      record(
        turn: 2, instructions: third, history: [.instructions(third), p0, r0, p1Rewritten, calls, output],
        window: [.instructions(third), p1Rewritten, calls, output], tools: [weatherByDay, search, weather],
        output: [], usage: GenerationUsage(input: .init(totalTokenCount: 120, reportedCachedTokenCount: 64)),
        notes: [
          GenerationNote(source: "rollingWindow", kind: .historyRewritten, message: "dropped 2 entries")
        ],
        outcome: .failed("timeout")),
      record(
        turn: 3, instructions: nil, history: [p0, p1], window: [p0, p1], tools: [], output: [],
        outcome: .cancelled),
    ]
  }
}

private func fixture(_ name: String) throws -> Data {
  try Data(
    contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures").appendingPathComponent(name))
}

private func lines(_ data: Data, startingWith prefix: String) -> [Substring] {
  String(decoding: data, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix(prefix) }
}

@Suite("Generation record archive format", .timeLimit(.minutes(10))) struct GenerationRecordArchiveFormatTests
{
  @Test func `hand-built records read back equal, and texts, tools and entries are each written once`() throws
  {
    let records = HandBuilt.records
    let data = try GenerationRecordArchive.encode(records)
    #expect(try GenerationRecordArchive.decode(data) == records)
    // Tools: weather, search, weather with another schema (counted by hand).
    #expect(lines(data, startingWith: #"{"tool""#).count == 3)
    // Texts: the base, the catalog, the rules; the structured segment is written in full.
    #expect(lines(data, startingWith: #"{"text""#).count == 3)
    // Entries: three instructions, p0, r0, p1, its rewrite, the call, its output; p1's first version
    // comes back in the last record without a new line.
    #expect(lines(data, startingWith: #"{"entry""#).count == 9)
    #expect(lines(data, startingWith: #"{"generation""#).count == 4)
  }

  @Test func `a record with every field set reads back equal from the records form and the JSON array form`()
    throws
  {
    var record = HandBuilt.records[2]
    record.round = 3
    record.generationOptions = GenerationOptions(
      sampling: .random(top: 40, seed: 7), temperature: 0.5, maximumResponseTokens: 100,
      toolCallingMode: .required)
    record.contextOptions = ContextOptions(includeSchemaInPrompt: false, reasoningLevel: .custom("deep"))
    record.schema = HandBuilt.schema("Answer", ["text"])
    record.usage = GenerationUsage(
      input: .init(totalTokenCount: 120, reportedCachedTokenCount: 64),
      output: .init(totalTokenCount: 30, reasoningTokenCount: 12))
    let records = [HandBuilt.records[0], record]
    #expect(try GenerationRecordArchive.decode(GenerationRecordArchive.encode(records)) == records)
    #expect(try GenerationRecordArchive.decode(JSONEncoder().encode(records)) == records)
  }

  @Test func `a session's instructions texts and tools are not repeated per generation`() throws {
    // Ten generations whose instructions are rebuilt with new segment ids each time.
    let records = (0..<10).map { turn in
      let instructions = HandBuilt.instructions(
        ["a\(turn)", "b\(turn)"], [HandBuilt.base, HandBuilt.catalog], tools: [HandBuilt.weather])
      return HandBuilt.record(
        turn: turn, instructions: instructions, history: [.instructions(instructions)],
        window: [.instructions(instructions)], tools: [HandBuilt.weather], output: [])
    }
    let data = try GenerationRecordArchive.encode(records)
    #expect(try GenerationRecordArchive.decode(data) == records)
    #expect(lines(data, startingWith: #"{"entry""#).count == 10)
    #expect(lines(data, startingWith: #"{"text""#).count == 2)
    #expect(lines(data, startingWith: #"{"tool""#).count == 1)
    #expect(String(decoding: data, as: UTF8.self).components(separatedBy: "reviews SQL").count == 2)
  }

  @Test func `a version 2 file (tools and instructions in full) still reads`() throws {
    // The first three generations of the support-chat scenario under compactingHistory, as
    // `contextkit demo --records` wrote them before tools and texts were numbered.
    let records = try GenerationRecordArchive.decode(try fixture("records-version-2.jsonl"), name: "v2")
    #expect(records.map { [$0.turnIndex, $0.round] } == [[0, 0], [1, 0], [1, 1]])
    let toolNames = ["lookup_order", "search_manual", "toggle_skill", "read_skill_resource"]
    #expect(records.allSatisfy { $0.toolDefinitions.map(\.name) == toolNames })
    #expect(records.allSatisfy { $0.instructions?.toolDefinitions.map(\.name) == toolNames })
    #expect(Set(records.compactMap { $0.instructions?.id }) == ["3F34B9D9-CF9B-437C-9343-D99DCD011C59"])
    let last = try #require(records.last)
    #expect(
      last.sentTranscript.map(\.kindName) == [
        "instructions", "prompt", "response", "prompt", "toolCalls", "toolOutput",
      ])
    #expect(last.output.map(\.id) == ["response_1_1"])
    guard case .toolOutput(let output) = last.sentTranscript.last else {
      Issue.record("the last entry sent is not a tool output")
      return
    }
    #expect(output.id == "call_1_0_0" && output.toolName == "search_manual")
    // Written again in this version, the records read back the same.
    #expect(try GenerationRecordArchive.decode(try GenerationRecordArchive.encode(records)) == records)
  }

  @Test func `a dangling text or tool number is located`() throws {
    let header = #"{"format":"contextkit.generation-records","version":3}"# + "\n"
    let text = #"{"text":{"number":0,"value":"You are terse."}}"# + "\n"
    let danglingText =
      header + text
      + #"{"entry":{"instructions":{"id":"i","segments":[{"id":"s","text":1}],"tools":[]},"number":0}}"#
      + "\n"
    do {
      _ = try GenerationRecordArchive.decode(Data(danglingText.utf8), name: "bad")
      Issue.record("a dangling text number was read")
    } catch {
      #expect(error.line == 3 && error.byteOffset == (header + text).utf8.count)
      #expect(error.reason.contains("text 1"))
    }
    let danglingTool =
      header
      + #"{"generation":{"requestID":"00000000-0000-0000-0000-000000000000","turnIndex":0,"round":0,"date":0,"#
      + #""storedHistory":[],"stages":[],"sentTranscript":[],"tools":[0],"#
      + #""generationOptions":{},"contextOptions":{"includeSchemaInPrompt":true},"output":[],"usage":{},"#
      + #""notes":[],"outcome":{"completed":{}}}}"#
      + "\n"
    do {
      _ = try GenerationRecordArchive.decode(Data(danglingTool.utf8), name: "bad")
      Issue.record("a dangling tool number was read")
    } catch {
      #expect(error.line == 2 && error.byteOffset == header.utf8.count)
      #expect(error.reason.contains("tool 0"))
    }
    let outOfOrder = header + #"{"text":{"number":1,"value":"x"}}"# + "\n"
    do {
      _ = try GenerationRecordArchive.decode(Data(outOfOrder.utf8), name: "bad")
      Issue.record("a text out of order was read")
    } catch {
      #expect(error.line == 2 && error.reason.contains("text number 1"))
    }
  }

  @Test func `a run of entries one past the last entry so far is refused, one that ends on it is read`()
    throws
  {
    let data = try GenerationRecordArchive.encode(HandBuilt.records)
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    let first = try #require(lines.firstIndex { $0.hasPrefix(#"{"generation""#) })
    let entryCount = lines[..<first].filter { $0.hasPrefix(#"{"entry""#) }.count
    try #require(entryCount > 0)
    func reading(
      storedHistory runs: [[Int]]
    ) throws -> Result<[GenerationRecord], GenerationRecordArchive.ReadError> {
      var object = try #require(
        try JSONSerialization.jsonObject(with: Data(lines[first].utf8)) as? [String: Any])
      var generation = try #require(object["generation"] as? [String: Any])
      generation["storedHistory"] = runs
      object["generation"] = generation
      var changed = lines
      changed[first] = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
      let text = changed.prefix(first + 1).joined(separator: "\n") + "\n"
      return Result(catching: { () throws(GenerationRecordArchive.ReadError) -> [GenerationRecord] in
        try GenerationRecordArchive.decode(Data(text.utf8), name: "runs")
      })
    }
    // The last entry, alone and as the end of a run of two: read.
    let last = try reading(storedHistory: [[entryCount - 1, 1]]).get()
    #expect(last.first?.storedHistory.count == 1)
    #expect(try reading(storedHistory: [[entryCount - 2, 2]]).get().first?.storedHistory.count == 2)
    // One entry further, by its start or by its length, or a negative start or length: refused, with
    // the line (a negative length must not become a range that ends before it starts).
    for runs in [[[entryCount, 1]], [[entryCount - 1, 2]], [[0, entryCount + 1]], [[1, -1]], [[-1, 1]]] {
      guard case .failure(let error) = try reading(storedHistory: runs) else {
        Issue.record("the run \(runs) past \(entryCount) entries was read")
        continue
      }
      #expect(error.line == first + 1, "\(runs)")
      #expect(error.reason.contains("(\(entryCount) entries so far)"), "\(runs): \(error.reason)")
    }
  }

  @Test func `a file from a newer version is refused at its header`() throws {
    let data = try GenerationRecordArchive.encode(HandBuilt.records)
    let text = String(decoding: data, as: UTF8.self)
    let current = #""version":\#(GenerationRecordArchive.version)"#
    try #require(text.contains(current))
    let newer = text.replacingOccurrences(
      of: current, with: #""version":\#(GenerationRecordArchive.version + 1)"#)
    do {
      _ = try GenerationRecordArchive.decode(Data(newer.utf8), name: "newer.jsonl")
      Issue.record("a file of version \(GenerationRecordArchive.version + 1) was read")
    } catch {
      #expect(error.line == 1 && error.byteOffset == 0)
      let version = GenerationRecordArchive.version
      #expect(error.reason == "version \(version + 1) is newer than this reader (\(version))")
    }
  }

  @Test func `a file cut inside an instructions line is located`() throws {
    let data = try GenerationRecordArchive.encode(HandBuilt.records)
    let text = String(decoding: data, as: UTF8.self)
    let allLines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let index = try #require(allLines.lastIndex { $0.contains(#""instructions":{"id""#) })
    let start = allLines[..<index].reduce(0) { $0 + $1.utf8.count + 1 }
    let cut = data.prefix(start + 20)
    do {
      _ = try GenerationRecordArchive.decode(cut, name: "cut.jsonl")
      Issue.record("a truncated file was read")
    } catch {
      #expect(error.path == "cut.jsonl" && error.line == index + 1 && error.byteOffset == start)
      #expect(error.reason.contains("truncated"))
    }
  }
}
