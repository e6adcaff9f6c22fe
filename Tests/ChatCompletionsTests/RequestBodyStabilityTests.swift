import Foundation
import ModelSession
import TestSupport
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// The provider guide's advice, applied to ContextKit's own provider: its
/// request body passes `EncodingStability.check`, and the same request put
/// through a plain `JSONEncoder` does not.
@Suite("The chat completions request body is byte-stable", .timeLimit(.minutes(10)))
struct RequestBodyStabilityTests {
  private func request() throws -> LanguageModelExecutorGenerationRequest {
    let transcript = Transcript(entries: [
      .instructions(
        Transcript.Instructions(
          id: "i", segments: [.text(.init(id: "i1", content: "Be brief."))],
          toolDefinitions: [Transcript.ToolDefinition(tool: WeatherTool())])),
      .prompt(Transcript.Prompt(id: "p", segments: [.text(.init(id: "p1", content: "Weather in Oslo?"))])),
      .toolCalls(
        Transcript.ToolCalls(
          id: "t",
          [
            Transcript.ToolCall(
              id: "c", toolName: "weather",
              arguments: try GeneratedContent(json: #"{"city":"Oslo","days":2}"#),
              metadata: ["b": GeneratedContent(kind: .number(1)), "a": GeneratedContent(kind: .number(2))])
          ])),
      .toolOutput(
        Transcript.ToolOutput(
          id: "c", toolName: "weather", segments: [.text(.init(id: "o", content: "Sunny"))])),
    ])
    return LanguageModelExecutorGenerationRequest(
      transcript: transcript, enabledToolDefinitions: [Transcript.ToolDefinition(tool: WeatherTool())],
      schema: WeatherTool().parameters,
      generationOptions: GenerationOptions(temperature: 0.2, maximumResponseTokens: 50),
      metadata: ["z": GeneratedContent(kind: .bool(true)), "y": GeneratedContent(kind: .string("x"))])
  }

  @Test func `the body passes the stability check`() throws {
    let request = try request()
    try EncodingStability.check { try RequestBuilder(model: "m").body(for: request) }
  }

  @Test func `the transcript and schema through a plain JSONEncoder fail it`() throws {
    struct NaiveBody: Encodable {
      var transcript: Transcript
      var schema: GenerationSchema?
    }
    let request = try request()
    let naive = NaiveBody(transcript: request.transcript, schema: request.schema)
    #expect(throws: EncodingStabilityError.self) {
      try EncodingStability.check { try JSONEncoder().encode(naive) }
    }
    try EncodingStability.check { try StableJSONEncoder().encode(naive) }
  }
}
