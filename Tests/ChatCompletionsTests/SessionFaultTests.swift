import Foundation
import ModelSession
import TestSupport
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// What one turn against a fault mode gave: the error, and whether the
/// session's transcript was the same before and after.
private struct TurnOutcome {
  var error: (any Error)?
  var transcriptUnchanged: Bool
  var seconds: Double
  /// The wall-clock times just before the turn started and just after it ended.
  var started: Date
  var ended: Date
}

/// The error a turn ("Hello") of `session` throws, or nil when it answers.
private func helloError(
  _ session: LanguageModelSession, options: GenerationOptions = GenerationOptions()
) async -> (any Error)? {
  do {
    try await session.respond(to: "Hello", options: options)
    return nil
  } catch {
    return error
  }
}

private func turn(_ mode: String, timeout: TimeInterval = 10) async throws -> TurnOutcome {
  try await FaultServer.with { server in
    let model = ChatCompletionsLanguageModel(
      name: "fault", baseURL: try server.baseURL(mode), apiKey: "sk-fault-session-key", timeout: timeout)
    let session = LanguageModelSession(model: model, instructions: "Be brief.")
    let history = Transcript(entries: session.transcript.entries)
    let start = ContinuousClock.now
    let started = Date()
    let error = await helloError(session)
    let ended = Date()
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    #expect("\(String(describing: error))".contains("sk-fault-session-key") == false)
    return TurnOutcome(
      error: error, transcriptUnchanged: session.transcript == history, seconds: seconds, started: started,
      ended: ended)
  }
}

private func chatError(_ outcome: TurnOutcome) -> ChatCompletionsError? {
  outcome.error as? ChatCompletionsError
}

/// The session's errors against the fault server, one test at a time: each
/// test starts a Python server, and many at once slow every test down.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct SessionFaultTests {
  @Test func `a complete stream through the session gives the text and usage`() async throws {
    try await FaultServer.with { server in
      let model = ChatCompletionsLanguageModel(name: "fault", baseURL: try server.baseURL("ok"))
      let session = LanguageModelSession(model: model)
      let response = try await session.respond(to: "Hello")
      #expect(response.content == "Hello there")
      #expect(response.usage.input.totalTokenCount == 5 && response.usage.output.totalTokenCount == 2)
      #expect(session.transcript.map(\.kindName) == ["prompt", "response"])
    }
  }

  @Test func `429 with Retry-After is rateLimited with the reset date, and the transcript is unchanged`()
    async throws
  {
    let outcome = try await turn("rate-limited")
    guard case .rateLimited(let payload) = outcome.error as? LanguageModelError else {
      Issue.record("expected rateLimited, got \(String(describing: outcome.error))")
      return
    }
    let reset = try #require(payload.resetDate)
    // Retry-After: 7, counted from when the answer came: within 7 s of the turn's start and end,
    // however long the turn took.
    #expect(reset >= outcome.started.addingTimeInterval(7), "\(reset) vs start \(outcome.started)")
    #expect(reset <= outcome.ended.addingTimeInterval(7), "\(reset) vs end \(outcome.ended)")
    #expect(payload.metadata["status"] as? Int == 429)
    #expect(outcome.transcriptUnchanged)
  }

  @Test(arguments: [("server-error", 500), ("unavailable", 503)])
  func `a server error keeps its status, and the transcript is unchanged`(
    mode: String, status: Int
  ) async throws {
    let outcome = try await turn(mode)
    #expect(chatError(outcome)?.status == status, "\(String(describing: outcome.error))")
    #expect(chatError(outcome)?.kind == .httpStatus)
    #expect(outcome.transcriptUnchanged)
  }

  @Test func `a context size error is contextSizeExceeded with the numbers`() async throws {
    let outcome = try await turn("context")
    guard case .contextSizeExceeded(let payload) = outcome.error as? LanguageModelError else {
      Issue.record("expected contextSizeExceeded, got \(String(describing: outcome.error))")
      return
    }
    #expect(payload.contextSize == 4096 && payload.tokenCount == 5000)
    #expect(outcome.transcriptUnchanged)
  }

  @Test func `an empty stream is asked again not streamed for one token, and its refusal is the error`()
    async throws
  {
    try await FaultServer.with { server in
      let model = ChatCompletionsLanguageModel(
        name: "fault", baseURL: try server.baseURL("empty-refusal"), requestStyle: .llamaCppPython)
      let session = LanguageModelSession(model: model, instructions: "Be brief.")
      let thrown = await helloError(session, options: GenerationOptions(maximumResponseTokens: 100))
      guard case .contextSizeExceeded(let payload) = thrown as? LanguageModelError else {
        Issue.record("expected contextSizeExceeded, got \(String(describing: thrown))")
        return
      }
      // The server's numbers: the window, and the prompt without the probe's one completion token.
      #expect(payload.contextSize == 2_048 && payload.tokenCount == 2_531)
      #expect(payload.debugDescription.contains("maximum context length is 2048 tokens"))
      let requests = try await server.receivedRequests()
      #expect(requests.map(\.stream) == [true, false])
      #expect(requests.map(\.maxTokens) == [100, 1])
      #expect(model.learnedContextSize == LearnedContextSize(size: 2_048, source: .contextLengthError))
      #expect(session.transcript.count == 1)
    }
  }

  /// The probe's answer is a completion, or another error: neither says why the stream was empty.
  @Test(arguments: ["empty-stream", "empty-stream-error"])
  func `an empty stream stays a truncated stream when the probe's answer is no refusal`(
    mode: String
  )
    async throws
  {
    try await FaultServer.with { server in
      let model = ChatCompletionsLanguageModel(
        name: "fault", baseURL: try server.baseURL(mode), requestStyle: .llamaCppPython)
      let session = LanguageModelSession(model: model)
      let thrown = await helloError(session)
      #expect((thrown as? ChatCompletionsError)?.kind == .truncatedStream, "\(String(describing: thrown))")
      let requests = try await server.receivedRequests()
      #expect(requests.map(\.stream) == [true, false])
      #expect(requests.map(\.maxTokens) == [nil, 1])
      #expect(model.learnedContextSize == nil)
    }
  }

  @Test func `a content filter error through the session is a guardrail violation`() async throws {
    let outcome = try await turn("content-filter")
    guard case .guardrailViolation = outcome.error as? LanguageModelError else {
      Issue.record("expected guardrailViolation, got \(String(describing: outcome.error))")
      return
    }
    #expect(outcome.transcriptUnchanged)
  }

  @Test(arguments: [
    ("cut-off", ChatCompletionsError.Kind.truncatedStream), ("no-done", .truncatedStream),
    ("malformed", .malformedChunk), ("error-event", .errorEvent), ("reset", .connectionFailed),
    ("reset-head", .connectionFailed),
  ])
  func `a broken stream is a typed error, and the transcript is unchanged`(
    mode: String, kind: ChatCompletionsError.Kind
  ) async throws {
    let outcome = try await turn(mode)
    #expect(chatError(outcome)?.kind == kind, "\(String(describing: outcome.error))")
    #expect(outcome.transcriptUnchanged)
  }

  @Test(arguments: ["stall", "stall-head"])
  func `a server that stalls past the timeout is a timeout, and the transcript is unchanged`(
    mode: String
  )
    async throws
  {
    let outcome = try await turn(mode, timeout: 1)
    guard case .timeout = outcome.error as? LanguageModelError else {
      Issue.record("expected timeout, got \(String(describing: outcome.error))")
      return
    }
    // A generous bound on a 1 s timeout, under the fault server's 30 s stall.
    #expect(outcome.seconds < 25)
    #expect(outcome.transcriptUnchanged)
  }

  @Test func `cancelling an endless stream leaves the transcript unchanged`() async throws {
    try await FaultServer.with { server in
      let model = ChatCompletionsLanguageModel(name: "fault", baseURL: try server.baseURL("endless"))
      let session = LanguageModelSession(model: model)
      let before = session.transcript
      let started = AsyncStream.makeStream(of: Void.self)
      let task = Task {
        defer { started.continuation.finish() }
        var snapshots = 0
        for try await _ in session.streamResponse(to: "Hello") {
          snapshots += 1
          if snapshots == 3 { started.continuation.yield() }
        }
        return snapshots
      }
      let arrived = await !firstElements(1, of: started.stream, within: .seconds(60)).isEmpty
      task.cancel()
      #expect(arrived, "the endless stream gave no third snapshot within 60 s")
      // The stream either ends or throws CancellationError, depending on which
      // side of the stream sees the cancellation first.
      let result = await task.result
      if case .failure(let error) = result { #expect(error is CancellationError) }
      try await waitUntilIdle(session)
      #expect(session.transcript == before)
      #expect(session.latestGenerationRecord?.outcome == .cancelled)
    }
  }

  @Test func `cancelling respond on an endless stream throws CancellationError`() async throws {
    try await FaultServer.with { server in
      let model = ChatCompletionsLanguageModel(name: "fault", baseURL: try server.baseURL("endless"))
      let session = LanguageModelSession(model: model)
      let task = Task { try await session.respond(to: "Hello") }
      // Cancel only once the server has sent three chunks: the cancel lands mid-stream.
      let streaming = try await server.occurrences(of: "endless-streaming", waitingUpTo: 60)
      try #require(streaming == 1, "the endless stream did not start within 60 seconds")
      task.cancel()
      await #expect(throws: CancellationError.self) { try await task.value }
      #expect(session.transcript.isEmpty)
      #expect(!session.isResponding)
    }
  }
}

extension SessionFaultTests {
  @Test(
    .enabled(
      if: defaultTransportSurvivesFastStreams,
      "Linux's URLSession crashes when back-pressure suspends a task mid-transfer (see TransportCapabilities)"
    ))
  func `an endless line fails the turn with limitExceeded, and the transcript is unchanged`()
    async throws
  {
    try await FaultServer.with { server in
      var model = ChatCompletionsLanguageModel(name: "fault", baseURL: try server.baseURL("endless-line"))
      model.endpoint.responseLimits.maximumLineBytes = 256 << 10
      let session = LanguageModelSession(model: model, instructions: "Be brief.")
      let before = session.transcript
      let error = await #expect(throws: ChatCompletionsError.self) { try await session.respond(to: "Hello") }
      #expect(error?.kind == .limitExceeded)
      #expect(session.transcript == before)
      #expect(!session.isResponding)
    }
  }

  @Test func `a server that echoes every secret puts none of them in the error or the record`() async throws {
    try await FaultServer.with { server in
      let key = "sk-echo-0123456789abcdef"
      let subscription = "azure-subscription-fedcba9876"
      let cookie = "cookie-session-value-42"
      let password = "url-password-1357"
      let queryToken = "query-token-2468"
      let base = try #require(
        URL(
          string: "http://bob:\(password)@127.0.0.1:\(server.port)/echo-secrets?api_key=\(queryToken)&model=x"
        ))
      var model = ChatCompletionsLanguageModel(name: "fault", baseURL: base, apiKey: key)
      model.endpoint.additionalHeaders = [
        "Ocp-Apim-Subscription-Key": subscription, "Cookie": "session=\(cookie); theme=dark", "X-Org": "acme",
      ]
      let session = LanguageModelSession(model: model)
      let thrown = await helloError(session)
      let error = try #require(thrown as? ChatCompletionsError, "\(String(describing: thrown))")
      #expect(error.status == 401)
      let record = try #require(session.latestGenerationRecord)
      let texts = [
        "\(error)", String(reflecting: error), error.message, "\(record.outcome)", "\(model)",
        "\(model.endpoint)",
        String(reflecting: model.endpoint), dumped(model.endpoint),
      ]
      for secret in [key, subscription, cookie, password, queryToken] {
        for text in texts {
          #expect(!text.contains(secret), "\(secret) leaked into: \(text)")
        }
      }
      // The echo reached the client and was redacted, not dropped.
      #expect(error.message.contains("bare token: <redacted>"))
      #expect(error.message.contains("X-Org: acme"))
    }
  }

  @Test func `an absurd Retry-After gives a reset date that converts to a Duration`() async throws {
    try await FaultServer.with { server in
      let model = ChatCompletionsLanguageModel(name: "fault", baseURL: try server.baseURL("retry-absurd"))
      let session = LanguageModelSession(model: model)
      let error = await #expect(throws: LanguageModelError.self) { try await session.respond(to: "Hello") }
      guard case .rateLimited(let payload) = error else {
        Issue.record("expected rateLimited, got \(String(describing: error))")
        return
      }
      let reset = try #require(payload.resetDate)
      let wait = Duration.seconds(reset.timeIntervalSinceNow)
      #expect(wait <= .seconds(3_600) && wait > .seconds(3_500))
    }
  }

  @Test func `tool-call arguments that never get a name fail the turn, and the transcript is unchanged`()
    async throws
  {
    try await FaultServer.with { server in
      let model = ChatCompletionsLanguageModel(name: "fault", baseURL: try server.baseURL("nameless-call"))
      let session = LanguageModelSession(model: model, tools: [WeatherTool()])
      let before = session.transcript
      let error = await #expect(throws: ChatCompletionsError.self) { try await session.respond(to: "Hello") }
      #expect(error?.kind == .malformedResponse)
      #expect(error?.message.contains("call_x") == true)
      #expect(session.transcript == before)
    }
  }

  @Test func `two calls on one index are two calls, each run with its own arguments`() async throws {
    try await FaultServer.with { server in
      let model = ChatCompletionsLanguageModel(
        name: "fault", baseURL: try server.baseURL("two-calls-one-index"))
      let weather = WeatherTool()
      let session = LanguageModelSession(model: model, tools: [weather])
      let response = try await session.respond(to: "Weather in Oslo and Paris?")
      #expect(response.content == "Both done.")
      #expect(weather.calls.all.sorted() == ["Oslo", "Paris"])
      let calls = session.transcript.compactMap { entry -> [String]? in
        guard case .toolCalls(let calls) = entry else { return nil }
        return calls.map(\.id)
      }
      #expect(calls.flatMap { $0 } == ["call_a", "call_b"])
    }
  }

  @Test func `a tool-call id that echoes the key is redacted in the error`() async throws {
    try await FaultServer.with { server in
      let key = "sk-echoed-in-call-id-1234"
      let model = ChatCompletionsLanguageModel(
        name: "fault", baseURL: try server.baseURL("nameless-call-echo"), apiKey: key)
      let session = LanguageModelSession(model: model, tools: [WeatherTool()])
      let error = await #expect(throws: ChatCompletionsError.self) { try await session.respond(to: "Hello") }
      #expect(error?.kind == .malformedResponse)
      #expect(error?.message.contains("<redacted>") == true, "\(String(describing: error))")
      #expect(error?.message.contains(key) == false)
      #expect(session.latestGenerationRecord.map { "\($0.outcome)" }?.contains(key) == false)
    }
  }
}

private func dumped(_ value: some Any) -> String {
  var text = ""
  dump(value, to: &text)
  return text
}
