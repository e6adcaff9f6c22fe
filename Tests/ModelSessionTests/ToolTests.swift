import ModelSession
import TestSupport
import Testing

/// A tool whose arguments are `Generable` and that declares no `parameters`.
private struct NoteTool: Tool {
  struct Arguments: Generable, Equatable {
    var title: String
    var count: Int

    static var generationSchema: GenerationSchema {
      get throws {
        try GenerationSchema(
          root: DynamicGenerationSchema(
            name: "NoteArguments",
            properties: [
              .init(name: "title", schema: DynamicGenerationSchema(type: String.self)),
              .init(name: "count", schema: DynamicGenerationSchema(type: Int.self)),
            ]),
          dependencies: [])
      }
    }
    init(_ content: GeneratedContent) throws {
      title = try content.value(forProperty: "title")
      count = try content.value(forProperty: "count")
    }
    var generatedContent: GeneratedContent { GeneratedContent(properties: ["title": title, "count": count]) }
  }

  let name = "note"
  let description = "Saves a note."
  let calls = CallLog()

  func call(arguments: Arguments) async throws -> String {
    calls.append("\(arguments.title) x\(arguments.count)")
    return "Saved."
  }
}

/// Arguments whose schema cannot be built: it refers to a definition it does not carry.
private struct BrokenArguments: Generable {
  static var generationSchema: GenerationSchema {
    get throws {
      try GenerationSchema(
        root: DynamicGenerationSchema(
          name: "BrokenArguments",
          properties: [.init(name: "when", schema: DynamicGenerationSchema(referenceTo: "Date"))]),
        dependencies: [])
    }
  }
  init(_ content: GeneratedContent) throws {}
  var generatedContent: GeneratedContent { GeneratedContent(properties: [:]) }
}

private struct BrokenTool: Tool {
  let name = "broken"
  let description = "Cannot describe its arguments."
  func call(arguments: BrokenArguments) async throws -> String { "" }
}

@Suite("A tool with Generable arguments", .timeLimit(.minutes(10))) struct ToolTests {
  @Test func `offers its arguments' schema and is called with them, without parameters of its own`()
    async throws
  {
    let script = ModelScript([
      .toolCall(name: "note", arguments: #"{"title":"Tea","count":2}"#), .text("Done."),
    ])
    let note = NoteTool()
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), tools: [note])
    let response = try await session.respond(to: "Note tea twice.")
    #expect(response.content == "Done.")
    #expect(note.calls.all == ["Tea x2"])
    let definitions = script.requests.first?.enabledToolDefinitions ?? []
    #expect(definitions.map(\.name) == ["note"])
    #expect(
      definitions.first?.parameters.jsonSchema.jsonString
        == #"{"type":"object","title":"NoteArguments","properties":{"title":{"type":"string"},"#
        + #""count":{"type":"integer"}},"required":["title","count"],"additionalProperties":false}"#)
  }

  @Test func `whose schema cannot be built offers an object with no properties, named after the type`() {
    #expect(throws: (any Error).self) { try BrokenArguments.generationSchema }
    #expect(
      BrokenTool().parameters.jsonSchema.jsonString
        == #"{"type":"object","title":"BrokenArguments","properties":{},"required":[],"additionalProperties":false}"#
    )
  }
}
