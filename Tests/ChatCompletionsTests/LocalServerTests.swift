import Foundation
import LocalServerSupport
import TestSupport
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Tests against the real llama-cpp-python server of `scripts/local-model`.
@Suite(
  .enabled(if: LocalModelServer.isAvailable, Comment(rawValue: LocalModelServer.skipNote)),
  .timeLimit(.minutes(20)), .holding(.standardWindow))
struct LocalServerTests {
  let endpoint: EndpointConfiguration
  let client: ChatCompletionsClient

  init() throws {
    endpoint = EndpointConfiguration(
      baseURL: try #require(LocalModelServer.endpoint), apiKey: "sk-local-unused")
    // Each test holds the server (`.holding(.standardWindow)`): no other suite's
    // requests are ahead of its own, so a request that takes minutes is a fault.
    client = ChatCompletionsClient(endpoint: endpoint, timeout: 180)
  }

  private func requestBody(_ prompt: String, maxTokens: Int = 24, extra: String = "") -> Data {
    let prompt = String(decoding: (try? JSONEncoder().encode(prompt)) ?? Data(), as: UTF8.self)
    return Data(
      #"{"model":"\#(LocalModelServer.model)","stream":true,"stream_options":{"include_usage":true},"#
        .appending(#""temperature":0,"seed":1,"max_tokens":\#(maxTokens),\#(extra)"#)
        .appending(#""messages":[{"role":"user","content":\#(prompt)}]}"#).utf8)
  }

  @Test func `a raw streamed completion arrives in several chunks, head first`() async throws {
    let request = endpoint.request(
      url: endpoint.chatCompletionsURL, body: requestBody("Count from one to twenty.", maxTokens: 40))
    let response = try await client.transport.send(request)
    #expect(response.status == 200)
    #expect(response.headers["content-type"]?.hasPrefix("text/event-stream") == true)
    var pieces: [Data] = []
    for try await piece in response.body {
      pieces.append(piece)
    }
    let body = String(decoding: pieces.reduce(Data(), +), as: UTF8.self)
    #expect(body.contains("data: [DONE]"))
    #expect(pieces.count >= 5, "the body arrived in \(pieces.count) pieces")
    print("raw stream: \(pieces.count) pieces, \(body.utf8.count) bytes")
  }

  @Test func `the chunk stream decodes text and a finish reason`() async throws {
    var content = ""
    var finishReasons: [ChatCompletionChunk.FinishReason] = []
    for try await chunk in try await client.streamChunks(requestBody: requestBody("Say hello.")) {
      content += chunk.choices.compactMap(\.delta.content).joined()
      finishReasons += chunk.choices.compactMap(\.finishReason)
    }
    #expect(!content.isEmpty)
    #expect(finishReasons.count == 1)
  }

  @Test func `a named tool choice streams a tool call`() async throws {
    let tool =
      #""tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","#
      + #""properties":{"city":{"type":"string"}},"required":["city"]}}}],"#
      + #""tool_choice":{"type":"function","function":{"name":"get_weather"}},"#
    var arguments = ""
    var names: Set<String> = []
    let body = requestBody("What is the weather in Paris?", maxTokens: 40, extra: tool)
    for try await chunk in try await client.streamChunks(requestBody: body) {
      for call in chunk.choices.flatMap(\.delta.toolCalls) {
        arguments += call.function?.arguments ?? ""
        names.formUnion(call.function?.name.map { [$0] } ?? [])
      }
    }
    #expect(names == ["get_weather"])
    let object = try JSONSerialization.jsonObject(with: Data(arguments.utf8)) as? [String: Any]
    #expect(object?["city"] is String)
  }

  @Test func `the server's tokenize endpoint is found and counts exactly`() async throws {
    let tokenizer = ServerTokenizer(client: client, model: LocalModelServer.model)
    let result = try #require(try await tokenizer.tokenize("Hello world"))
    #expect(result.endpoint == .llamaCppPython)
    #expect(result.tokens == [19556, 905])
    #expect(await tokenizer.detectedEndpoint == .llamaCppPython)
  }

  @Test func `a rejected request is the server's error with its message`() async throws {
    let format =
      #""response_format":{"type":"json_schema","json_schema":{"name":"X","strict":true,"#
      + #""schema":{"type":"object"}}},"#
    await #expect {
      _ = try await client.streamChunks(requestBody: requestBody("Hi", extra: format))
    } throws: { error in
      guard let details = error as? ChatCompletionsError else { return false }
      return details.status == 500 && details.message.contains("json_object")
    }
  }

  @Test func `a prompt past the context window ends the stream with a typed error`() async throws {
    let body = requestBody(String(repeating: "hello ", count: 5_000), maxTokens: 4)
    await #expect {
      for try await _ in try await client.streamChunks(requestBody: body) {}
    } throws: { error in
      (error as? ChatCompletionsError)?.kind == .truncatedStream
    }
  }

  @Test func `cancelling mid-stream ends with CancellationError and closes the request`() async throws {
    let body = requestBody("Write a long story about a lighthouse.", maxTokens: 400)
    let streaming = TestSignal()
    let cancelled = TestSignal()
    let consumer = Task {
      var received = 0
      // A stream that ends or fails before its third chunk ends the test's wait too:
      // the expectation below then shows what it returned or threw.
      defer { streaming.fire() }
      for try await _ in try await client.streamChunks(requestBody: body) {
        received += 1
        if received == 3 {
          // Hold the reader here until the cancel has landed, so the next
          // read happens in a cancelled task whether or not the model has
          // finished meanwhile (a short story must not make this test pass or
          // fail by timing).
          streaming.fire()
          try await cancelled.wait(upTo: .seconds(60))
        }
      }
      return received
    }
    // Cancel only once three chunks have arrived: the cancel lands mid-stream.
    try await streaming.wait(upTo: .seconds(180))
    consumer.cancel()
    cancelled.fire()
    await #expect(throws: CancellationError.self) { try await consumer.value }
    #expect(
      try await eventually { client.transport.inFlightRequestCount == 0 },
      "the transport still counts the cancelled transfer as open after 5 seconds")
  }

  @Test func `twenty concurrent streams on one client all complete`() async throws {
    let client = self.client
    let body = requestBody("Say one word.", maxTokens: 6)
    let completed = try await withThrowingTaskGroup(of: Bool.self) { group in
      for _ in 0..<20 {
        group.addTask {
          var sawFinish = false
          for try await chunk in try await client.streamChunks(requestBody: body) {
            sawFinish = sawFinish || chunk.choices.contains { $0.finishReason != nil }
          }
          return sawFinish
        }
      }
      return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    #expect(completed == 20)
  }
}

extension LocalServerTests {
  @Test(.timeLimit(.minutes(20)))
  func `the local model server is configured, or its tests say why they are skipped`() throws {
    let text = ProcessInfo.processInfo.environment["CONTEXTKIT_TEST_ENDPOINT"] ?? ""
    if text.isEmpty {
      #expect(!LocalModelServer.isAvailable)
      // The skip note names the variable and the command that gives its value.
      #expect(LocalModelServer.skipNote.hasPrefix("CONTEXTKIT_TEST_ENDPOINT is not set"))
      #expect(LocalModelServer.skipNote.contains("scripts/local-model start"))
      print("note: \(LocalModelServer.skipNote)")
    } else {
      // A set variable must name a server: a typo must not pass for a skip.
      let url = try #require(LocalModelServer.endpoint, "CONTEXTKIT_TEST_ENDPOINT=\(text) is not a URL")
      #expect(LocalModelServer.isAvailable)
      #expect(
        url.scheme == "http" || url.scheme == "https", "CONTEXTKIT_TEST_ENDPOINT=\(text) is not an HTTP URL")
      #expect(url.host?.isEmpty == false, "CONTEXTKIT_TEST_ENDPOINT=\(text) names no host")
    }
  }
}
