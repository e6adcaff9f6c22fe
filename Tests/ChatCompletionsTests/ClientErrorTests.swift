import Foundation
import ModelSession
import Synchronization
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

private let completeStream =
  ": keep-alive comment\n\n" + sseChunk("Hello") + sseChunk(" there") + sseChunk(finish: "stop")
  + #"data: {"id":"c","object":"chat.completion.chunk","created":0,"model":"m","choices":[],"#
  + #""usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}"# + "\n\ndata: [DONE]\n\n"

/// A tokenizer for model `m` at `http://model.test`, over `transport`.
private func serverTokenizer(over transport: InMemoryTransport) throws -> ServerTokenizer {
  let endpoint = EndpointConfiguration(baseURL: try #require(URL(string: "http://model.test")))
  return ServerTokenizer(
    client: ChatCompletionsClient(
      endpoint: endpoint, timeouts: ChatCompletionsTimeouts(5), transport: transport),
    model: "m")
}

@Suite(.timeLimit(.minutes(10))) struct ClientErrorTests {
  @Test(.timeLimit(.minutes(10))) func `a complete stream yields its chunks and usage`() async throws {
    let outcome = try await streamThrough(InMemoryTransport(.stream(completeStream)))
    #expect(outcome.error == nil)
    #expect(outcome.text == "Hello there")
    #expect(outcome.chunks.contains { $0.choices.first?.finishReason == .stop })
    #expect(outcome.chunks.last?.usage?.totalTokens == 7)
  }

  @Test(.timeLimit(.minutes(10))) func `the stream reads the same however the bytes are split`() async throws
  {
    let bytes = Array(completeStream.utf8)
    for size in [1, 2, 7, 64] {
      let pieces = stride(from: 0, to: bytes.count, by: size).map {
        Data(bytes[$0..<min($0 + size, bytes.count)])
      }
      let outcome = try await streamThrough(InMemoryTransport(.init(pieces: pieces)))
      #expect(outcome.error == nil && outcome.text == "Hello there", "pieces of \(size) bytes")
    }
  }

  @Test(.timeLimit(.minutes(10))) func `429 with Retry-After is rateLimited with the reset date`()
    async throws
  {
    let before = Date()
    let outcome = try await streamThrough(
      InMemoryTransport(
        .json(
          429,
          #"{"error":{"message":"Rate limit reached","type":"rate_limit_error","code":"rate_limit_exceeded"}}"#,
          headers: ["Retry-After": "7"])))
    let after = Date()
    guard case .rateLimited(let payload) = outcome.languageModelError else {
      Issue.record("expected rateLimited, got \(String(describing: outcome.error))")
      return
    }
    let reset = try #require(payload.resetDate)
    #expect(reset.timeIntervalSince(before) >= 6.5 && reset.timeIntervalSince(after) <= 7.5)
    #expect(payload.metadata["status"] as? Int == 429)
    #expect(payload.metadata["code"] as? String == "rate_limit_exceeded")
    #expect(payload.debugDescription.contains("Rate limit reached"))
  }

  @Test(.timeLimit(.minutes(10))) func `429 with an HTTP-date Retry-After`() async throws {
    // Fifty minutes from now (within the one-hour clamp, and far enough that a
    // slow, loaded test run cannot reach it first), in whole seconds, as an HTTP date.
    let reset = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3_000).rounded(.down))
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    let outcome = try await streamThrough(
      InMemoryTransport(
        .json(
          429, #"{"error":{"message":"slow down","type":"requests"}}"#,
          headers: ["Retry-After": formatter.string(from: reset)])))
    guard case .rateLimited(let payload) = outcome.languageModelError else {
      Issue.record("expected rateLimited, got \(String(describing: outcome.error))")
      return
    }
    #expect(payload.resetDate == reset)
  }

  @Test(.timeLimit(.minutes(10))) func `500 keeps the server's message, type and code`() async throws {
    let outcome = try await streamThrough(
      InMemoryTransport(.json(500, #"{"error":{"message":"boom","type":"server_error","code":"internal"}}"#)))
    #expect(
      outcome.chatError
        == ChatCompletionsError(
          kind: .httpStatus, status: 500, message: "boom", type: "server_error", code: "internal"))
  }

  @Test(.timeLimit(.minutes(10))) func `503 with a plain-text body keeps the text`() async throws {
    let outcome = try await streamThrough(
      InMemoryTransport(.init(status: 503, pieces: [Data("Service Unavailable".utf8)])))
    #expect(
      outcome.chatError
        == ChatCompletionsError(kind: .httpStatus, status: 503, message: "Service Unavailable"))
  }

  @Test(.timeLimit(.minutes(10))) func `a context size error is contextSizeExceeded with the numbers`()
    async throws
  {
    let body =
      #"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","#
      + #""type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}"#
    let outcome = try await streamThrough(InMemoryTransport(.json(400, body)))
    guard case .contextSizeExceeded(let payload) = outcome.languageModelError else {
      Issue.record("expected contextSizeExceeded, got \(String(describing: outcome.error))")
      return
    }
    #expect(payload.contextSize == 4096 && payload.tokenCount == 5000)
    #expect(payload.metadata["status"] as? Int == 400)
  }

  @Test(.timeLimit(.minutes(10))) func `a content filter error is a guardrail violation`() async throws {
    let body =
      #"{"error":{"code":"content_filter","message":"The response was filtered due to the prompt "#
      + #"triggering the content management policy.","type":null}}"#
    let outcome = try await streamThrough(InMemoryTransport(.json(400, body)))
    guard case .guardrailViolation(let payload) = outcome.languageModelError else {
      Issue.record("expected guardrailViolation, got \(String(describing: outcome.error))")
      return
    }
    #expect(payload.metadata["code"] as? String == "content_filter")
  }

  @Test(.timeLimit(.minutes(10)))
  func `a stream cut off mid-event is a truncated stream after the chunks before it`() async throws {
    let outcome = try await streamThrough(
      InMemoryTransport(.stream(sseChunk("Hello") + #"data: {"id":"chatcmpl-fault","choi"#)))
    #expect(outcome.text == "Hello")
    #expect(outcome.chatError?.kind == .truncatedStream)
  }

  @Test(.timeLimit(.minutes(10))) func `a stream that ends without DONE or a finish reason is truncated`()
    async throws
  {
    let outcome = try await streamThrough(InMemoryTransport(.stream(sseChunk("Hello"))))
    #expect(outcome.text == "Hello")
    #expect(outcome.chatError?.kind == .truncatedStream)
  }

  @Test(.timeLimit(.minutes(10))) func `a malformed chunk is a malformed chunk error`() async throws {
    let outcome = try await streamThrough(
      InMemoryTransport(.stream(sseChunk("Hello") + "data: {this is not json}\n\n")))
    #expect(outcome.text == "Hello")
    #expect(outcome.chatError?.kind == .malformedChunk)
  }

  @Test(.timeLimit(.minutes(10))) func `an error envelope mid-stream is the server's error`() async throws {
    let outcome = try await streamThrough(
      InMemoryTransport(
        .stream(
          sseChunk("Hello")
            + #"data: {"error": {"message": "model crashed", "type": "server_error", "code": 500}}"# + "\n\n")
      ))
    #expect(outcome.text == "Hello")
    #expect(
      outcome.chatError
        == ChatCompletionsError(
          kind: .errorEvent, status: 500, message: "model crashed", type: "server_error", code: "500"))
  }

  @Test(.timeLimit(.minutes(10)))
  func `a rate-limit error event is rateLimited, by its status or by its code alone`() async throws {
    for envelope in [
      #"{"error": {"message": "slow down", "type": "requests", "code": "rate_limit_exceeded"}}"#,
      #"{"error": {"message": "slow down", "type": "requests", "code": 429}}"#,
    ] {
      let outcome = try await streamThrough(
        InMemoryTransport(.stream(sseChunk("Hello") + "data: " + envelope + "\n\n")))
      #expect(outcome.text == "Hello")
      guard case .rateLimited(let payload) = outcome.languageModelError else {
        Issue.record("\(envelope): expected rateLimited, got \(String(describing: outcome.error))")
        continue
      }
      // A stream's error event carries no Retry-After.
      #expect(payload.resetDate == nil)
    }
  }

  @Test(.timeLimit(.minutes(10)))
  func `a transport failure mid-stream is a public error, never an internal one`() async throws {
    let failures: [(TransportFailure, ChatCompletionsError.Kind)] = [
      (.connectionFailed("connection reset"), .connectionFailed),
      (.tlsFailed("certificate"), .tlsFailed),
      (.invalidResponse("garbage"), .invalidResponse),
    ]
    for (failure, kind) in failures {
      let outcome = try await streamThrough(InMemoryTransport(.stream(sseChunk("Hello"), failure: failure)))
      #expect(outcome.text == "Hello")
      #expect(outcome.chatError?.kind == kind, "\(String(describing: outcome.error))")
    }
    for stage in ChatCompletionsTimeouts.Stage.allCases {
      let failure: TransportFailure =
        switch stage {
        case .connect: .connectTimeout(seconds: 1, url: "http://model.test")
        case .firstByte: .firstByteTimeout(seconds: 1, url: "http://model.test")
        case .idle: .idleTimeout(seconds: 1, url: "http://model.test")
        }
      let outcome = try await streamThrough(InMemoryTransport { _ in throw failure })
      guard case .timeout(let payload) = outcome.languageModelError else {
        Issue.record("expected timeout, got \(String(describing: outcome.error))")
        continue
      }
      #expect(payload.metadata["timeout"] as? String == stage.rawValue)
    }
  }

  @Test(.timeLimit(.minutes(10))) func `the request carries the default, bearer and merged headers`()
    async throws
  {
    let transport = InMemoryTransport(.stream(completeStream))
    let endpoint = EndpointConfiguration(
      baseURL: try #require(URL(string: "http://model.test")), apiKey: "sk-header-test",
      additionalHeaders: ["x-org": "acme", "user-agent": "MyApp/2"])
    let client = ChatCompletionsClient(
      endpoint: endpoint, timeouts: ChatCompletionsTimeouts(5), transport: transport)
    for try await _ in try await client.streamChunks(requestBody: Data("{}".utf8)) {}
    let request = try #require(transport.requests.first)
    #expect(request.url.absoluteString == "http://model.test/v1/chat/completions")
    #expect(request.method == "POST" && request.body == Data("{}".utf8))
    #expect(request.headers["authorization"] == "Bearer sk-header-test")
    #expect(request.headers["accept"] == "text/event-stream")
    #expect(request.headers["content-type"] == "application/json")
    #expect(request.headers["user-agent"] == "MyApp/2")
    #expect(request.headers["x-org"] == "acme")
    #expect(request.timeouts == ChatCompletionsTimeouts(connect: 5, firstByte: 5, idle: 5))
  }

  @Test(.timeLimit(.minutes(10)))
  func `the tokenizer finds llama.cpp's endpoint, or reports that there is none`() async throws {
    let llamaCppServer = InMemoryTransport { request in
      guard request.url.path == "/tokenize" else { return .json(404, #"{"detail":"Not Found"}"#) }
      let content =
        try JSONDecoder().decode([String: String].self, from: request.body ?? Data())["content"] ?? ""
      let tokens = content.split(separator: " ").indices.map(String.init).joined(separator: ",")
      return .json(200, #"{"tokens":[\#(tokens)]}"#)
    }
    let llamaCpp = try serverTokenizer(over: llamaCppServer)
    #expect(
      try await llamaCpp.tokenize("one two three")
        == ServerTokenization(tokens: [0, 1, 2], endpoint: .llamaCpp))
    #expect(await llamaCpp.detectedEndpoint == .llamaCpp)

    let noTokenizer = InMemoryTransport(.json(404, #"{"detail":"Not Found"}"#))
    let none = try serverTokenizer(over: noTokenizer)
    #expect(try await none.tokenize("one two") == nil)
    #expect(try await none.tokenize("again") == nil)
    #expect(noTokenizer.requests.count == 2, "the second call must not ask again")
  }

  @Test(.timeLimit(.minutes(10)))
  func `the tokenizer remembers llama-cpp-python's endpoint and asks only it afterwards`() async throws {
    let pythonServer = InMemoryTransport { request in
      guard request.url.path == "/extras/tokenize" else { return .json(404, #"{"detail":"Not Found"}"#) }
      let body = try JSONDecoder().decode([String: String].self, from: request.body ?? Data())
      guard body["model"] == "m" else { return .json(400, #"{"detail":"no model"}"#) }
      let tokens = (body["input"] ?? "").split(separator: " ").indices.map(String.init).joined(separator: ",")
      return .json(200, #"{"tokens":[\#(tokens)]}"#)
    }
    let tokenizer = try serverTokenizer(over: pythonServer)
    // The first call tries llama.cpp's endpoint, then llama-cpp-python's, which answers.
    #expect(
      try await tokenizer.tokenize("one two three")
        == ServerTokenization(tokens: [0, 1, 2], endpoint: .llamaCppPython))
    #expect(await tokenizer.detectedEndpoint == .llamaCppPython)
    // Later calls go to the endpoint that answered, and only to it.
    #expect(
      try await tokenizer.tokenize("four five")
        == ServerTokenization(tokens: [0, 1], endpoint: .llamaCppPython))
    #expect(pythonServer.requests.map(\.url.path) == ["/tokenize", "/extras/tokenize", "/extras/tokenize"])
  }

  @Test(.timeLimit(.minutes(10))) func `the tokenizer throws public errors`() async throws {
    let failing = InMemoryTransport(.json(500, #"{"error":{"message":"tokenizer crashed"}}"#))
    let tokenizer = try serverTokenizer(over: failing)
    await #expect {
      _ = try await tokenizer.tokenize("one")
    } throws: { error in
      (error as? ChatCompletionsError)?.message == "tokenizer crashed"
    }
  }

  @Test(.timeLimit(.minutes(10)))
  func `a tokenizer endpoint answering 501 Not Implemented is no tokenizer, as a 404 is`() async throws {
    let server = InMemoryTransport(.json(501, #"{"error":{"message":"not implemented"}}"#))
    let tokenizer = try serverTokenizer(over: server)
    #expect(try await tokenizer.tokenize("one two") == nil)
    #expect(try await tokenizer.tokenize("again") == nil)
    #expect(server.requests.map(\.url.path) == ["/tokenize", "/extras/tokenize"])
  }

  @Test(.timeLimit(.minutes(10)), arguments: [408, 429])
  func `a tokenizer endpoint answering 408 or 429 is an error, not a server without a tokenizer`(
    status: Int
  )
    async throws
  {
    let busy = Mutex(true)
    let server = InMemoryTransport { request in
      guard request.url.path == "/tokenize" else { return .json(404, #"{"detail":"Not Found"}"#) }
      if busy.withLock({ $0 }) { return .json(status, #"{"error":{"message":"busy"}}"#) }
      return .json(200, #"{"tokens":[7,8]}"#)
    }
    let tokenizer = try serverTokenizer(over: server)
    await #expect {
      _ = try await tokenizer.tokenize("one two")
    } throws: { error in
      switch error as? LanguageModelError {
      case .rateLimited: status == 429
      case .timeout: status == 408
      default: false
      }
    }
    // The other endpoint was not tried, and the server is not taken as one without a tokenizer.
    #expect(server.requests.map(\.url.path) == ["/tokenize"])
    #expect(await tokenizer.detectedEndpoint == nil)
    busy.withLock { $0 = false }
    #expect(
      try await tokenizer.tokenize("one two") == ServerTokenization(tokens: [7, 8], endpoint: .llamaCpp))
  }

  @Test(.timeLimit(.minutes(10)))
  func `a found tokenizer endpoint that stops answering is an error, not a server without one`() async throws
  {
    let answered = Mutex(false)
    let server = InMemoryTransport { request in
      guard request.url.path == "/tokenize", !answered.withLock({ $0 }) else {
        return .json(404, #"{"detail":"Not Found"}"#)
      }
      answered.withLock { $0 = true }
      return .json(200, #"{"tokens":[7,8]}"#)
    }
    let tokenizer = try serverTokenizer(over: server)
    #expect(
      try await tokenizer.tokenize("one two") == ServerTokenization(tokens: [7, 8], endpoint: .llamaCpp))
    await #expect {
      _ = try await tokenizer.tokenize("three")
    } throws: { error in
      let error = error as? ChatCompletionsError
      return error?.kind == .invalidResponse && error?.message == "/tokenize stopped answering"
    }
    #expect(server.requests.map(\.url.path) == ["/tokenize", "/tokenize"])
  }

  @Test(.timeLimit(.minutes(10)))
  func `a stream cut off mid-event after its finish reason is still truncated`() async throws {
    // The finish reason came, then the usage chunk broke off: the stream is not complete.
    let outcome = try await streamThrough(
      InMemoryTransport(.stream(sseChunk("Hello", finish: "stop") + #"data: {"id":"c","choices":[],"usa"#)))
    #expect(outcome.text == "Hello")
    #expect(outcome.chatError?.kind == .truncatedStream)
    #expect(outcome.chatError?.message == "the stream ended in the middle of an event")
  }

  @Test(.timeLimit(.minutes(10)))
  func `a 2xx stream without any event says so, one whose events came in earlier pieces does not`()
    async throws
  {
    let empty = try await streamThrough(InMemoryTransport(.stream(": nothing to say\n\n")))
    #expect(
      empty.chatError?.message
        == "the server answered 2xx and closed the stream without any event (llama-cpp-python does this "
        + "when the prompt exceeds the context window; its log says why)")
    // The event is in the first piece; the last piece is only a keep-alive comment.
    let pieces = [Data(sseChunk("Hello").utf8), Data(": keep-alive\n\n".utf8)]
    let cut = try await streamThrough(
      InMemoryTransport(.init(headers: ["Content-Type": "text/event-stream"], pieces: pieces)))
    #expect(cut.text == "Hello")
    #expect(cut.chatError?.kind == .truncatedStream)
    #expect(cut.chatError?.message == "the stream ended before [DONE] and before any finish_reason")
  }
}
