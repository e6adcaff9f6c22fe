import Foundation
import ModelSession
import TestSupport
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// The session against hostile answers: each failure is typed, leaves the
/// transcript as it was, and carries no secret into the error or the record.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct SessionHardeningTests {
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
      var thrown: (any Error)?
      do {
        try await session.respond(to: "Hello")
      } catch {
        thrown = error
      }
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
}

extension SessionHardeningTests {
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
