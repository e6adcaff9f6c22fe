import Foundation
import ModelSession
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

@Suite("ChatCompletionsLanguageModel in the documented spelling", .serialized, .timeLimit(.minutes(10)))
struct DocumentedSpellingTests {
  @Test func `name:url:additionalHeaders: keeps the default headers and adds Authorization`() throws {
    let base = try #require(URL(string: "http://localhost:8000/v1"))
    let model = ChatCompletionsLanguageModel(
      name: "qwen3-30b", url: base, additionalHeaders: ["Authorization": "Bearer tok-123"],
      supportsGuidedGeneration: false)
    #expect(model.url == base)
    #expect(model.endpoint.chatCompletionsURL.absoluteString == "http://localhost:8000/v1/chat/completions")
    let headers = model.endpoint.requestHeaders
    #expect(headers["Authorization"] == "Bearer tok-123")
    #expect(headers["Content-Type"] == "application/json")
    #expect(headers["Accept"] == "text/event-stream")
    #expect(!model.capabilities.capabilities.contains(.guidedGeneration))
    let shipped = ChatCompletionsLanguageModel(
      name: "qwen3-30b", baseURL: base, additionalHeaders: ["Authorization": "Bearer tok-123"])
    #expect(model.executorConfiguration == shipped.executorConfiguration)
  }

  @Test func `a session on a model built with url: answers`() async throws {
    try await FaultServer.with { server in
      let model = ChatCompletionsLanguageModel(
        name: "fault", url: try server.baseURL("ok"), additionalHeaders: ["Authorization": "Bearer tok"])
      let session = LanguageModelSession(model: model)
      let response = try await session.respond(to: "Summarize this changelog.")
      #expect(response.content == "Hello there")
      #expect(response.usage.input.totalTokenCount == 5)
    }
  }
}
