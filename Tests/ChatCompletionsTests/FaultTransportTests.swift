import Foundation
import Synchronization
import Testing

@testable import ChatCompletions

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a streamed request to one fault mode gave: the chunks before the failure, and the failure.
private struct Outcome {
  var chunks: [ChatCompletionChunk] = []
  var error: (any Error)?
  var seconds: Double = 0

  var failure: ChatCompletionsFailure? { error as? ChatCompletionsFailure }
  var text: String { chunks.compactMap { $0.choices.first?.delta.content }.joined() }
}

private func stream(
  _ mode: String, on server: FaultServer, timeout: TimeInterval = 10
) async throws -> Outcome {
  let endpoint = EndpointConfiguration(baseURL: try server.baseURL(mode), apiKey: "sk-fault-test-key")
  let client = ChatCompletionsClient(endpoint: endpoint, timeout: timeout)
  var outcome = Outcome()
  let start = ContinuousClock.now
  do {
    for try await chunk in try await client.streamChunks(requestBody: Data(#"{"stream":true}"#.utf8)) {
      outcome.chunks.append(chunk)
    }
  } catch {
    outcome.error = error
  }
  let elapsed = ContinuousClock.now - start
  outcome.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  return outcome
}

@Test func `a complete stream yields its chunks and usage`() async throws {
  let outcome = try await FaultServer.with { try await stream("ok", on: $0) }
  #expect(outcome.error == nil)
  #expect(outcome.text == "Hello there")
  #expect(outcome.chunks.contains { $0.choices.first?.finishReason == .stop })
  #expect(outcome.chunks.last?.usage?.totalTokens == 7)
}

@Test func `429 with Retry-After is a rate limit with the reset date`() async throws {
  let before = Date()
  let outcome = try await FaultServer.with { try await stream("rate-limited", on: $0) }
  guard case .rateLimited(let resetDate, let error) = outcome.failure else {
    Issue.record("expected a rate limit, got \(String(describing: outcome.error))")
    return
  }
  let after = Date()
  let reset = try #require(resetDate)
  // Retry-After: 7 seconds, counted from when the answer arrived (between `before` and `after`).
  #expect(reset.timeIntervalSince(before) >= 6.5 && reset.timeIntervalSince(after) <= 7.5)
  #expect(error.status == 429 && error.message == "Rate limit reached" && error.code == "rate_limit_exceeded")
}

@Test func `429 with an HTTP-date Retry-After`() async throws {
  let before = Date()
  let outcome = try await FaultServer.with { try await stream("rate-limited-date", on: $0) }
  let after = Date()
  guard case .rateLimited(let resetDate, _) = outcome.failure else {
    Issue.record("expected a rate limit, got \(String(describing: outcome.error))")
    return
  }
  // The server sends its clock plus 120 s, in whole seconds.
  let reset = try #require(resetDate)
  #expect(reset.timeIntervalSince(before) >= 118.5 && reset.timeIntervalSince(after) <= 120.5)
}

@Test func `500 keeps the server's message, type and code`() async throws {
  let outcome = try await FaultServer.with { try await stream("server-error", on: $0) }
  #expect(
    outcome.failure
      == .other(
        .init(kind: .httpStatus, status: 500, message: "boom", type: "server_error", code: "internal")))
}

@Test func `503 with a plain-text body keeps the text`() async throws {
  let outcome = try await FaultServer.with { try await stream("unavailable", on: $0) }
  #expect(outcome.failure == .other(.init(kind: .httpStatus, status: 503, message: "Service Unavailable")))
}

@Test func `a context size error is a context size failure with the numbers`() async throws {
  let outcome = try await FaultServer.with { try await stream("context", on: $0) }
  guard case .contextSizeExceeded(let contextSize, let tokenCount, let error) = outcome.failure else {
    Issue.record("expected a context size failure, got \(String(describing: outcome.error))")
    return
  }
  #expect(contextSize == 4096 && tokenCount == 5000 && error.status == 400)
}

@Test func `a content filter error is a guardrail violation`() async throws {
  let outcome = try await FaultServer.with { try await stream("content-filter", on: $0) }
  guard case .guardrailViolation(let error) = outcome.failure else {
    Issue.record("expected a guardrail violation, got \(String(describing: outcome.error))")
    return
  }
  #expect(error.code == "content_filter")
}

@Test func `a stream cut off mid-event is a truncated stream after the chunks before it`() async throws {
  let outcome = try await FaultServer.with { try await stream("cut-off", on: $0) }
  #expect(outcome.text == "Hello")
  #expect(outcome.failure?.error.kind == .truncatedStream)
}

@Test func `a stream that ends without DONE or a finish reason is truncated`() async throws {
  let outcome = try await FaultServer.with { try await stream("no-done", on: $0) }
  #expect(outcome.text == "Hello")
  #expect(outcome.failure?.error.kind == .truncatedStream)
}

@Test func `a malformed chunk is a malformed chunk failure`() async throws {
  let outcome = try await FaultServer.with { try await stream("malformed", on: $0) }
  #expect(outcome.text == "Hello")
  #expect(outcome.failure?.error.kind == .malformedChunk)
}

@Test func `an error envelope mid-stream is the server's error`() async throws {
  let outcome = try await FaultServer.with { try await stream("error-event", on: $0) }
  #expect(outcome.text == "Hello")
  #expect(
    outcome.failure
      == .other(
        .init(kind: .errorEvent, status: 500, message: "model crashed", type: "server_error", code: "500")))
}

@Test func `a server that stalls mid-stream past the timeout is a timeout`() async throws {
  let outcome = try await FaultServer.with { try await stream("stall", on: $0, timeout: 1) }
  #expect(outcome.text == "Hello")
  guard case .timeout = outcome.failure else {
    Issue.record("expected a timeout, got \(String(describing: outcome.error))")
    return
  }
  #expect(outcome.seconds < 25, "the 30 s stall ran out instead of the 1 s timeout")
  print("timed out after \(outcome.seconds) s with a 1 s timeout")
}

@Test func `a server that stalls before the head past the timeout is a timeout`() async throws {
  let outcome = try await FaultServer.with { try await stream("stall-head", on: $0, timeout: 1) }
  guard case .timeout = outcome.failure else {
    Issue.record("expected a timeout, got \(String(describing: outcome.error))")
    return
  }
  #expect(outcome.seconds < 25, "the 30 s stall ran out instead of the 1 s timeout")
  print("timed out after \(outcome.seconds) s with a 1 s timeout")
}

@Test(arguments: ["reset", "reset-head"])
func `a connection reset is a connection failure`(mode: String) async throws {
  let outcome = try await FaultServer.with { try await stream(mode, on: $0) }
  let kind = outcome.failure?.error.kind
  #expect(kind == .connectionFailed || kind == .truncatedStream, "got \(String(describing: outcome.error))")
}

@Test func `a refused connection is a connection failure`() async throws {
  let port = try await FaultServer.with { $0.port }
  let endpoint = EndpointConfiguration(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")))
  let client = ChatCompletionsClient(endpoint: endpoint, timeout: 5)
  await #expect {
    _ = try await client.streamChunks(requestBody: Data("{}".utf8))
  } throws: { error in
    (error as? ChatCompletionsFailure)?.error.kind == .connectionFailed
  }
}

@Test func `cancelling the consuming task ends the stream and closes the connection`() async throws {
  try await FaultServer.with { server in
    let client = ChatCompletionsClient(
      endpoint: EndpointConfiguration(baseURL: try server.baseURL("endless")))
    let received = Mutex(0)
    let consumer = Task {
      for try await _ in try await client.streamChunks(requestBody: Data("{}".utf8)) {
        received.withLock { $0 += 1 }
      }
    }
    let deadline = ContinuousClock.now + .seconds(60)
    while received.withLock({ $0 }) < 3, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    try #require(received.withLock { $0 } >= 3, "the stream did not start within 60 seconds")
    consumer.cancel()
    let result = await consumer.result
    if case .success = result {
      Issue.record("the endless stream ended without an error")
    }
    #expect(throws: CancellationError.self) { try result.get() }
    var waited = 0
    while client.http.inFlightRequestCount > 0, waited < 200 {
      try await Task.sleep(for: .milliseconds(10))
      waited += 1
    }
    #expect(client.http.inFlightRequestCount == 0)
    #expect(try await disconnects(seenBy: server) == 1, "the server did not see the connection close")
  }
}

@Test func `leaving the loop early closes the connection`() async throws {
  try await FaultServer.with { server in
    let client = ChatCompletionsClient(
      endpoint: EndpointConfiguration(baseURL: try server.baseURL("endless")))
    var received = 0
    for try await _ in try await client.streamChunks(requestBody: Data("{}".utf8)) {
      received += 1
      if received == 3 {
        break
      }
    }
    #expect(try await disconnects(seenBy: server) == 1, "the server did not see the connection close")
    #expect(client.http.inFlightRequestCount == 0)
  }
}

/// How many `endless` streams of the fault server saw their client go away, polled for up to 2 seconds.
private func disconnects(seenBy server: FaultServer) async throws -> Int {
  let stats = try #require(URL(string: "http://127.0.0.1:\(server.port)/stats"))
  var count = 0
  for _ in 0..<100 where count == 0 {
    let (data, _) = try await URLSession.shared.data(from: stats)
    count = try JSONDecoder().decode([String: Int].self, from: data)["endless_disconnects"] ?? 0
    if count == 0 {
      try await Task.sleep(for: .milliseconds(20))
    }
  }
  return count
}

@Test func `the request carries the default, bearer and merged headers`() async throws {
  try await FaultServer.with { server in
    let endpoint = EndpointConfiguration(
      baseURL: try server.baseURL("headers"), apiKey: "sk-header-test",
      additionalHeaders: ["x-org": "acme", "user-agent": "MyApp/2"])
    let client = ChatCompletionsClient(endpoint: endpoint, timeout: 5)
    let request = endpoint.request(url: endpoint.chatCompletionsURL, body: Data("{}".utf8))
    let response = try await client.send(request)
    let body = try await response.collectBody()
    let headers = try JSONDecoder().decode([String: String].self, from: body)
    #expect(headers["authorization"] == "Bearer sk-header-test")
    #expect(headers["accept"] == "text/event-stream")
    #expect(headers["content-type"] == "application/json")
    #expect(headers["user-agent"] == "MyApp/2")
    #expect(headers["x-org"] == "acme")
  }
}

@Test func `the tokenizer finds llama.cpp's endpoint, or reports that there is none`() async throws {
  try await FaultServer.with { server in
    let llamaCpp = ServerTokenizer(
      client: ChatCompletionsClient(endpoint: EndpointConfiguration(baseURL: try server.baseURL("llamacpp"))),
      model: "fault")
    let tokens = try await llamaCpp.tokenize("one two three")
    #expect(tokens == ServerTokenization(tokens: [0, 1, 2], endpoint: .llamaCpp))
    #expect(await llamaCpp.detectedEndpoint == .llamaCpp)

    let none = ServerTokenizer(
      client: ChatCompletionsClient(endpoint: EndpointConfiguration(baseURL: try server.baseURL("ok"))),
      model: "fault")
    #expect(try await none.tokenize("one two") == nil)
    #expect(try await none.tokenize("again") == nil)
  }
}
