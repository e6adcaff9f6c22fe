import Foundation
import ModelSession
import TestSupport
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

private func text(_ content: String) -> Transcript.Segment {
  .text(Transcript.TextSegment(id: "s", content: content))
}

private func body(
  _ entries: [Transcript.Entry], tools: [Transcript.ToolDefinition] = [], schema: GenerationSchema? = nil,
  options: GenerationOptions = GenerationOptions(), style: ChatCompletionsRequestStyle = .openAI
) throws -> String {
  let request = LanguageModelExecutorGenerationRequest(
    transcript: Transcript(entries: entries), enabledToolDefinitions: tools, schema: schema,
    generationOptions: options)
  return String(decoding: try RequestBuilder(model: "m", style: style).body(for: request), as: UTF8.self)
}

private let prompt = Transcript.Entry.prompt(Transcript.Prompt(id: "p", segments: [text("Hi")]))
private let weather = Transcript.ToolDefinition(tool: WeatherTool())

private struct Sticker: CustomSegment, Equatable {
  static let typeIdentifier = "test.sticker"
  var id = "sticker"
}

@Suite(.timeLimit(.minutes(10))) struct RequestBuilderTests {
  @Test(.timeLimit(.minutes(10)))
  func `a prompt alone gives the model, one user message and the stream fields`()
    throws
  {
    #expect(
      try body([prompt])
        == #"{"model":"m","messages":[{"role":"user","content":"Hi"}],"stream":true,"#
        + #""stream_options":{"include_usage":true}}"#)
  }

  @Test(.timeLimit(.minutes(10))) func `instructions without text send no system message`() throws {
    let entries: [Transcript.Entry] = [
      .instructions(Transcript.Instructions(id: "i", segments: [], toolDefinitions: [])), prompt,
    ]
    // The same body as the prompt alone: no empty system message.
    #expect(
      try body(entries)
        == #"{"model":"m","messages":[{"role":"user","content":"Hi"}],"stream":true,"#
        + #""stream_options":{"include_usage":true}}"#)
  }

  @Test(.timeLimit(.minutes(10))) func `every entry kind becomes its message`() throws {
    let entries: [Transcript.Entry] = [
      .instructions(
        Transcript.Instructions(id: "i", segments: [text("Be brief.")], toolDefinitions: [weather])),
      prompt,
      .reasoning(Transcript.Reasoning(id: "r", segments: [text("The user wants weather.")])),
      .toolCalls(
        Transcript.ToolCalls(
          id: "c",
          [
            Transcript.ToolCall(
              id: "call_1", toolName: "weather", arguments: GeneratedContent(properties: ["city": "Paris"]))
          ])),
      .toolOutput(Transcript.ToolOutput(id: "call_1", toolName: "weather", segments: [text("21°C")])),
      .response(Transcript.Response(id: "a", assetIDs: [], segments: [text("It is 21°C.")])),
    ]
    #expect(
      try body(entries)
        == #"{"model":"m","messages":[{"role":"system","content":"Be brief."},"#
        + #"{"role":"user","content":"Hi"},"#
        + #"{"role":"assistant","content":"","reasoning_content":"The user wants weather.","#
        + #""tool_calls":[{"id":"call_1","type":"function","function":{"name":"weather","#
        + #""arguments":"{\"city\":\"Paris\"}"}}]},"#
        + #"{"role":"tool","content":"21°C","tool_call_id":"call_1"},"#
        + #"{"role":"assistant","content":"It is 21°C."}],"#
        + #""stream":true,"stream_options":{"include_usage":true}}"#)
  }

  @Test(.timeLimit(.minutes(10)))
  func `tool calls after a later prompt are their own assistant message, not the earlier response's`() throws
  {
    let entries: [Transcript.Entry] = [
      prompt,
      .response(Transcript.Response(id: "a", assetIDs: [], segments: [text("Hello.")])),
      .prompt(Transcript.Prompt(id: "p2", segments: [text("Weather?")])),
      .toolCalls(
        Transcript.ToolCalls(
          id: "c",
          [Transcript.ToolCall(id: "x", toolName: "weather", arguments: GeneratedContent(properties: [:]))])),
    ]
    #expect(
      try body(entries)
        == #"{"model":"m","messages":[{"role":"user","content":"Hi"},"#
        + #"{"role":"assistant","content":"Hello."},"#
        + #"{"role":"user","content":"Weather?"},"#
        + #"{"role":"assistant","content":"","tool_calls":[{"id":"x","type":"function","#
        + #""function":{"name":"weather","arguments":"{}"}}]}],"#
        + #""stream":true,"stream_options":{"include_usage":true}}"#)
  }

  @Test(.timeLimit(.minutes(10)))
  func `reasoning entries in a row all reach the next assistant message`() throws {
    let entries: [Transcript.Entry] = [
      prompt,
      .reasoning(Transcript.Reasoning(id: "r1", segments: [text("First thought. ")])),
      .reasoning(Transcript.Reasoning(id: "r2", segments: [text("Second thought.")])),
      .response(Transcript.Response(id: "a", assetIDs: [], segments: [text("Done.")])),
    ]
    #expect(
      try body(entries)
        == #"{"model":"m","messages":[{"role":"user","content":"Hi"},"#
        + #"{"role":"assistant","content":"Done.","reasoning_content":"First thought. Second thought."}],"#
        + #""stream":true,"stream_options":{"include_usage":true}}"#)
  }

  @Test(.timeLimit(.minutes(10))) func `tool calls right after a response join its assistant message`() throws
  {
    let entries: [Transcript.Entry] = [
      prompt,
      .response(Transcript.Response(id: "a", assetIDs: [], segments: [text("Let me look.")])),
      .toolCalls(
        Transcript.ToolCalls(
          id: "c",
          [Transcript.ToolCall(id: "x", toolName: "weather", arguments: GeneratedContent(properties: [:]))])),
    ]
    let json = try body(entries)
    #expect(
      json.contains(
        #"{"role":"assistant","content":"Let me look.","tool_calls":[{"id":"x","type":"function","#
          + #""function":{"name":"weather","arguments":"{}"}}]}"#))
  }

  @Test(.timeLimit(.minutes(10))) func `the same request gives the same bytes`() throws {
    let entries: [Transcript.Entry] = [
      .instructions(Transcript.Instructions(id: "i", segments: [text("Be brief.")], toolDefinitions: [])),
      prompt,
    ]
    let options = GenerationOptions(
      sampling: .random(top: 40, seed: 7), temperature: 0.7, maximumResponseTokens: 9)
    let first = try body(entries, tools: [weather], schema: WeatherTool().parameters, options: options)
    for _ in 0..<20 {
      #expect(
        try body(entries, tools: [weather], schema: WeatherTool().parameters, options: options) == first)
    }
  }

  @Test(.timeLimit(.minutes(10))) func `tools are sent only when there are any, with their JSON schema`()
    throws
  {
    #expect(try !body([prompt]).contains("tools"))
    let json = try body([prompt], tools: [weather])
    #expect(
      json.contains(
        #""tools":[{"type":"function","function":{"name":"weather","#
          + #""description":"Gets the current temperature in a city.","parameters":"#
          + weather.parameters.jsonSchema.jsonString + "}}]"))
    #expect(!json.contains("tool_choice"))
  }

  @Test(.timeLimit(.minutes(10))) func `tool choice follows the tool calling mode`() throws {
    func choice(
      _ mode: GenerationOptions.ToolCallingMode, _ tools: [Transcript.ToolDefinition]
    ) throws -> String {
      let json = try body([prompt], tools: tools, options: GenerationOptions(toolCallingMode: mode))
      guard let start = json.range(of: #""tool_choice":"#) else { return "" }
      return String(json[start.upperBound...].prefix { $0 != "," && $0 != "}" })
    }
    #expect(try choice(.allowed, [weather]) == #""auto""#)
    #expect(try choice(.disallowed, [weather]) == #""none""#)
    #expect(try choice(.required, [weather, weather]) == #""required""#)
    let named = try body([prompt], tools: [weather], options: GenerationOptions(toolCallingMode: .required))
    #expect(named.contains(#""tool_choice":{"type":"function","function":{"name":"weather"}}"#))
    #expect(
      try !body([prompt], options: GenerationOptions(toolCallingMode: .required)).contains("tool_choice"))
  }

  /// The session decides which rounds require a tool call (see the session's tests);
  /// the builder does not guess it from the transcript: a skill delivered before
  /// the first generation also ends the transcript with tool output.
  @Test(.timeLimit(.minutes(10))) func `required tool calling is sent as asked, after tool output too`()
    throws
  {
    let entries: [Transcript.Entry] = [
      prompt,
      .toolCalls(
        Transcript.ToolCalls(
          id: "c",
          [Transcript.ToolCall(id: "x", toolName: "weather", arguments: GeneratedContent(properties: [:]))])),
      .toolOutput(Transcript.ToolOutput(id: "x", toolName: "weather", segments: [text("21°C")])),
    ]
    let json = try body(entries, tools: [weather], options: GenerationOptions(toolCallingMode: .required))
    #expect(json.contains(#""tool_choice":{"type":"function","function":{"name":"weather"}}"#))
    let allowed = try body(entries, tools: [weather], options: GenerationOptions(toolCallingMode: .allowed))
    #expect(allowed.contains(#""tool_choice":"auto""#))
  }

  @Test(.timeLimit(.minutes(10)))
  func `a schema is a strict json_schema response format, or json_object with a schema`() throws {
    let schema = WeatherTool().parameters
    #expect(
      try body([prompt], schema: schema).contains(
        #""response_format":{"type":"json_schema","json_schema":{"name":"WeatherArguments","strict":true,"#
          + #""schema":"# + schema.jsonSchema.jsonString + "}}"))
    #expect(
      try body([prompt], schema: schema, style: .llamaCppPython).contains(
        #""response_format":{"type":"json_object","schema":"# + schema.jsonSchema.jsonString + "}"))
  }

  @Test(.timeLimit(.minutes(10))) func `schema names are cleaned to what OpenAI accepts`() {
    #expect(RequestBuilder.schemaName("My Type.v2") == "My_Type_v2")
    #expect(RequestBuilder.schemaName("") == "response")
    #expect(RequestBuilder.schemaName(String(repeating: "a", count: 80)).count == 64)
  }

  @Test(.timeLimit(.minutes(10))) func `sampling modes map to temperature, top_k, top_p and seed`() throws {
    #expect(
      try body([prompt], options: GenerationOptions(sampling: .greedy, temperature: 0.9)).contains(
        #""temperature":0,"stream""#))
    #expect(
      try body([prompt], options: GenerationOptions(sampling: .random(top: 40, seed: 3), temperature: 0.5))
        .contains(#""temperature":0.5,"top_k":40,"seed":3,"#))
    #expect(
      try body([prompt], options: GenerationOptions(sampling: .random(probabilityThreshold: 0.9)))
        .contains(#""top_p":0.9,"stream""#))
    #expect(try body([prompt], options: GenerationOptions(temperature: 1.2)).contains(#""temperature":1.2,"#))
    #expect(
      try body([prompt], options: GenerationOptions(sampling: .random(top: 1, seed: UInt64.max)))
        .contains(#""seed":9007199254740991"#))
  }

  @Test(.timeLimit(.minutes(10))) func `the token limit uses the style's field`() throws {
    let options = GenerationOptions(maximumResponseTokens: 12)
    #expect(try body([prompt], options: options).contains(#""max_completion_tokens":12,"#))
    #expect(try body([prompt], options: options, style: .llamaCppPython).contains(#""max_tokens":12,"#))
  }

  @Test(.timeLimit(.minutes(10))) func `images are parts: data as a data URL, URLs as themselves`() throws {
    let url = try #require(URL(string: "https://example.com/cat.png"))
    let entry = Transcript.Entry.prompt(
      Transcript.Prompt(
        id: "p",
        segments: [
          text("What is this?"),
          .attachment(.init(id: "a", content: .image(.init(data: Data([1, 2, 3]), mimeType: "image/png")))),
          .attachment(.init(id: "b", content: .image(.init(url: url)))),
        ]))
    #expect(
      try body([entry]).contains(
        #"{"role":"user","content":[{"type":"text","text":"What is this?"},"#
          + #"{"type":"image_url","image_url":{"url":"data:image/png;base64,AQID"}},"#
          + #"{"type":"image_url","image_url":{"url":"https://example.com/cat.png"}}]}"#))
  }

  @Test(.timeLimit(.minutes(10))) func `a custom segment is unsupported transcript content naming the entry`()
    throws
  {
    let entry = Transcript.Entry.prompt(Transcript.Prompt(id: "p", segments: [.custom(Sticker())]))
    do {
      _ = try body([entry])
      Issue.record("no error")
    } catch LanguageModelError.unsupportedTranscriptContent(let payload) {
      #expect(payload.unsupportedContent.map(\.id) == ["p"])
      #expect(payload.debugDescription.contains("sticker"))
    }
  }

  @Test(.timeLimit(.minutes(10))) func `an image outside a prompt is unsupported transcript content`() throws
  {
    let image = Transcript.Segment.attachment(
      .init(id: "a", content: .image(.init(data: Data([1]), mimeType: "image/png"))))
    let entry = Transcript.Entry.response(Transcript.Response(id: "r", assetIDs: [], segments: [image]))
    #expect(throws: LanguageModelError.self) { try body([prompt, entry]) }
  }

  @Test(.timeLimit(.minutes(10)))
  func `the configuration identifies the endpoint and credential, not the model name`() throws {
    let url = try #require(URL(string: "http://127.0.0.1:8080"))
    let first = ChatCompletionsLanguageModel(name: "a", baseURL: url, apiKey: "k1")
    let second = ChatCompletionsLanguageModel(
      name: "b", baseURL: url, apiKey: "k1", supportsGuidedGeneration: true)
    let third = ChatCompletionsLanguageModel(name: "a", baseURL: url, apiKey: "k2")
    #expect(first.executorConfiguration == second.executorConfiguration)
    #expect(first.executorConfiguration != third.executorConfiguration)
    #expect(!"\(first.executorConfiguration)".contains("k1"))
    #expect(!first.capabilities.contains(.guidedGeneration))
    #expect(second.capabilities.contains(.guidedGeneration))
    #expect(first.capabilities.contains(.toolCalling) && first.capabilities.contains(.vision))
    #expect(first.capabilities.contains(.reasoning))
  }

  /// What each entry kind puts in the body, beyond the cases above: several
  /// calls in one entry, segments joined, parts in order, and every option at once.
  @Suite("Request body per entry kind") struct EntryKinds {
    private func structure(_ json: String) throws -> Transcript.Segment {
      .structure(Transcript.StructuredSegment(id: "s", content: try GeneratedContent(json: json)))
    }

    @Test func `several calls in one entry keep their order, ids and argument text, each answered by id`()
      throws
    {
      let entries: [Transcript.Entry] = [
        prompt,
        .toolCalls(
          Transcript.ToolCalls(
            id: "c",
            [
              Transcript.ToolCall(
                id: "c1", toolName: "weather",
                arguments: try GeneratedContent(json: #"{"zone":"CET","city":"Zürich \"old\""}"#)),
              Transcript.ToolCall(id: "c2", toolName: "time", arguments: try GeneratedContent(json: "{}")),
            ])),
        .toolOutput(Transcript.ToolOutput(id: "c1", toolName: "weather", segments: [text("21°C")])),
        .toolOutput(Transcript.ToolOutput(id: "c2", toolName: "time", segments: [text("12:00")])),
      ]
      #expect(
        try body(entries)
          == #"{"model":"m","messages":[{"role":"user","content":"Hi"},"#
          + #"{"role":"assistant","content":"","tool_calls":["#
          + #"{"id":"c1","type":"function","function":{"name":"weather","#
          + #""arguments":"{\"zone\":\"CET\",\"city\":\"Zürich \\\"old\\\"\"}"}},"#
          + #"{"id":"c2","type":"function","function":{"name":"time","arguments":"{}"}}]},"#
          + #"{"role":"tool","content":"21°C","tool_call_id":"c1"},"#
          + #"{"role":"tool","content":"12:00","tool_call_id":"c2"}],"#
          + #""stream":true,"stream_options":{"include_usage":true}}"#)
    }

    @Test func `segments of one entry are joined by newlines, structures as compact JSON`() throws {
      let entries: [Transcript.Entry] = [
        .instructions(
          Transcript.Instructions(
            id: "i", segments: [text("Be brief."), text("Use metric.")], toolDefinitions: [])),
        .prompt(
          Transcript.Prompt(
            id: "p", segments: [text("Plan:"), try structure(#"{"b": [1, 2], "a": true}"#), text("OK?")])),
        .response(Transcript.Response(id: "a", assetIDs: [], segments: [try structure(#"{"ok": "yes"}"#)])),
        .toolOutput(
          Transcript.ToolOutput(id: "x", toolName: "weather", segments: [text("Sun"), text("21°C")])),
      ]
      #expect(
        try body(entries)
          == #"{"model":"m","messages":[{"role":"system","content":"Be brief.\nUse metric."},"#
          + #"{"role":"user","content":"Plan:\n{\"b\":[1,2],\"a\":true}\nOK?"},"#
          + #"{"role":"assistant","content":"{\"ok\":\"yes\"}"},"#
          + #"{"role":"tool","content":"Sun\n21°C","tool_call_id":"x"}],"#
          + #""stream":true,"stream_options":{"include_usage":true}}"#)
    }

    @Test func `parts keep the prompt's segment order, structures as text parts`() throws {
      let entry = Transcript.Entry.prompt(
        Transcript.Prompt(
          id: "p",
          segments: [
            .attachment(.init(id: "a", content: .image(.init(data: Data([255]), mimeType: "image/jpeg")))),
            text("Which one?"),
            try structure(#"{"n": 2}"#),
          ]))
      #expect(
        try body([entry])
          == #"{"model":"m","messages":[{"role":"user","content":["#
          + #"{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,/w=="}},"#
          + #"{"type":"text","text":"Which one?"},{"type":"text","text":"{\"n\":2}"}]}],"#
          + #""stream":true,"stream_options":{"include_usage":true}}"#)
    }

    @Test func `a custom segment beside an image is refused, not dropped`() {
      let entry = Transcript.Entry.prompt(
        Transcript.Prompt(
          id: "p",
          segments: [
            .attachment(.init(id: "a", content: .image(.init(data: Data([1]), mimeType: "image/png")))),
            .custom(Sticker()),
          ]))
      #expect(throws: LanguageModelError.self) { try body([entry]) }
    }

    @Test func `a response without segments sends no empty assistant message`() throws {
      let entries: [Transcript.Entry] = [
        prompt, .response(Transcript.Response(id: "a", assetIDs: [], segments: [])),
        .prompt(Transcript.Prompt(id: "p2", segments: [text("Again?")])),
      ]
      #expect(
        try body(entries)
          == #"{"model":"m","messages":[{"role":"user","content":"Hi"},{"role":"user","content":"Again?"}],"#
          + #""stream":true,"stream_options":{"include_usage":true}}"#)
    }

    @Test func `every option at once, in the documented field order`() throws {
      let schema = WeatherTool().parameters
      let options = GenerationOptions(
        sampling: .random(probabilityThreshold: 0.9, seed: 5), temperature: 0.25, maximumResponseTokens: 64,
        toolCallingMode: .allowed)
      #expect(
        try body([prompt], tools: [weather], schema: schema, options: options)
          == #"{"model":"m","messages":[{"role":"user","content":"Hi"}],"#
          + #""tools":[{"type":"function","function":{"name":"weather","#
          + #""description":"Gets the current temperature in a city.","parameters":"#
          + weather.parameters.jsonSchema.jsonString + "}}],"
          + #""tool_choice":"auto","#
          + #""response_format":{"type":"json_schema","json_schema":{"name":"WeatherArguments","strict":true,"#
          + #""schema":"# + schema.jsonSchema.jsonString + "}},"
          + #""temperature":0.25,"top_p":0.9,"seed":5,"max_completion_tokens":64,"#
          + #""stream":true,"stream_options":{"include_usage":true}}"#)
    }

    @Test func `a model's request style reaches its body, and the two spellings mix`() throws {
      let url = try #require(URL(string: "http://127.0.0.1:8080"))
      let style = ChatCompletionsRequestStyle(responseFormat: .jsonSchema, maximumTokensField: .maxTokens)
      let model = ChatCompletionsLanguageModel(name: "n", baseURL: url, requestStyle: style)
      let request = LanguageModelExecutorGenerationRequest(
        transcript: Transcript(entries: [prompt]), enabledToolDefinitions: [], schema: nil,
        generationOptions: GenerationOptions(maximumResponseTokens: 7))
      #expect(
        String(decoding: try model.requestBuilder.body(for: request), as: UTF8.self)
          == #"{"model":"n","messages":[{"role":"user","content":"Hi"}],"max_tokens":7,"#
          + #""stream":true,"stream_options":{"include_usage":true}}"#)
    }

    @Test func `top-k sampling without a seed sends no seed`() throws {
      #expect(
        try body([prompt], options: GenerationOptions(sampling: .random(top: 40)))
          == #"{"model":"m","messages":[{"role":"user","content":"Hi"}],"top_k":40,"#
          + #""stream":true,"stream_options":{"include_usage":true}}"#)
    }
  }
}
