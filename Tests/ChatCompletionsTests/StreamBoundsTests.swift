import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// What reading one fault mode under some limits gave, or `nil` when it did
/// not finish within its deadline (the request is cancelled then).
private struct BoundedOutcome: Sendable {
  var chunks = 0
  var error: (any Error)?
  var seconds = 0.0

  var chatError: ChatCompletionsError? { error as? ChatCompletionsError }
}

/// Streams `mode` with `limits`, giving up (and cancelling) after `deadline` seconds.
private func stream(
  _ mode: String, on server: FaultServer, limits: ResponseLimits = ResponseLimits(), apiKey: String? = nil,
  deadline: Double = 60
) async throws -> BoundedOutcome? {
  var endpoint = EndpointConfiguration(baseURL: try server.baseURL(mode), apiKey: apiKey)
  endpoint.responseLimits = limits
  let client = ChatCompletionsClient(endpoint: endpoint, timeout: 10)
  return await withTaskGroup(of: BoundedOutcome?.self) { group in
    group.addTask {
      var outcome = BoundedOutcome()
      let start = ContinuousClock.now
      do {
        for try await _ in try await client.streamChunks(requestBody: Data(#"{"stream":true}"#.utf8)) {
          outcome.chunks += 1
        }
      } catch {
        outcome.error = error
      }
      let elapsed = ContinuousClock.now - start
      outcome.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      return outcome
    }
    group.addTask {
      try? await Task.sleep(for: .seconds(deadline))
      return nil
    }
    let first = await group.next() ?? nil
    group.cancelAll()
    return first
  }
}

/// How many answers of `mode` saw their client go away, waiting (on the
/// server's `/await`) up to 5 seconds for the first.
private func disconnects(_ mode: String, seenBy server: FaultServer) async throws -> Int {
  try await server.occurrences(of: mode, waitingUpTo: 5)
}

/// The fault server's endless answers against every bound of ``ResponseLimits``,
/// one at a time (each pushes megabytes through the loopback interface).
@Suite(.serialized, .timeLimit(.minutes(10)))
struct StreamBoundsTests {
  @Test(.enabled(if: defaultTransportSurvivesFastStreams, "see TransportCapabilities"))
  func `data then endless bytes without a line end fails at the line bound and closes the connection`()
    async throws
  {
    try await FaultServer.with { server in
      let limits = ResponseLimits(maximumLineBytes: 1 << 20)
      let outcome = try #require(
        try await stream("endless-line", on: server, limits: limits),
        "no error within 60 s: the endless line is read without a bound")
      #expect(outcome.chatError?.kind == .limitExceeded, "\(String(describing: outcome.error))")
      #expect(outcome.chatError?.message.contains("maximumLineBytes") == true)
      #expect(outcome.chatError?.message.contains("1 MiB") == true)
      #expect(try await disconnects("endless-line", seenBy: server) == 1)
      print("endless line: limitExceeded after \(outcome.seconds) s with a 1 MiB line bound")
    }
  }

  @Test(.enabled(if: defaultTransportSurvivesFastStreams, "see TransportCapabilities"))
  func `the default line bound stops an endless line too`() async throws {
    try await FaultServer.with { server in
      let outcome = try #require(
        try await stream("endless-line", on: server), "no error within 60 s under the default 16 MiB bound")
      #expect(outcome.chatError?.kind == .limitExceeded, "\(String(describing: outcome.error))")
      #expect(outcome.chatError?.message.contains("16 MiB") == true)
      print("endless line: limitExceeded after \(outcome.seconds) s with the default 16 MiB line bound")
    }
  }

  @Test(.enabled(if: defaultTransportSurvivesFastStreams, "see TransportCapabilities"))
  func `data lines without a blank line between them fail at the event bound`() async throws {
    try await FaultServer.with { server in
      let limits = ResponseLimits(maximumEventBytes: 1 << 20)
      let outcome = try #require(
        try await stream("endless-event", on: server, limits: limits),
        "no error within 60 s: data lines accumulate without a bound")
      #expect(outcome.chatError?.kind == .limitExceeded, "\(String(describing: outcome.error))")
      #expect(outcome.chatError?.message.contains("maximumEventBytes") == true)
      #expect(try await disconnects("endless-event", seenBy: server) == 1)
    }
  }

  @Test func `a stream past the total bound fails after the chunks before it`() async throws {
    try await FaultServer.with { server in
      // Each `endless` event is about 170 bytes: a 4 KiB bound lets some through, then stops.
      let limits = ResponseLimits(maximumStreamBytes: 4 << 10)
      let outcome = try #require(try await stream("endless", on: server, limits: limits))
      #expect(outcome.chatError?.kind == .limitExceeded, "\(String(describing: outcome.error))")
      #expect(outcome.chatError?.message.contains("maximumStreamBytes") == true)
      #expect(outcome.chunks > 0)
      #expect(try await disconnects("endless", seenBy: server) == 1)
    }
  }

  @Test(.enabled(if: defaultTransportSurvivesFastStreams, "see TransportCapabilities"))
  func `a 500 whose body never ends is reported at the cap, and the connection is closed`() async throws {
    try await FaultServer.with { server in
      let outcome = try #require(
        try await stream("endless-error", on: server), "the endless error body was read for 60 s")
      #expect(outcome.chatError?.kind == .httpStatus && outcome.chatError?.status == 500)
      #expect(outcome.chatError?.message.contains("cut off at 1 MiB") == true)
      // The message keeps a short excerpt, not the megabyte.
      #expect((outcome.chatError?.message.count ?? .max) < 2_200)
      #expect(try await disconnects("endless-error", seenBy: server) == 1)
    }
  }

  @Test func `a 500 whose body trickles forever is reported when the time bound runs out`() async throws {
    try await FaultServer.with { server in
      let limits = ResponseLimits(errorBodyTimeLimit: 1)
      let outcome = try #require(
        try await stream("trickle-error", on: server, limits: limits),
        "the trickling error body was read for 60 s: every byte resets the idle timeout")
      #expect(outcome.chatError?.status == 500)
      #expect(outcome.chatError?.message.contains("still sending the body after 1 s") == true)
      #expect(outcome.chatError?.message.hasPrefix("e") == true)
    }
  }

  @Test func `keep-alive comments that never end stop at the stream's duration bound`() async throws {
    try await FaultServer.with { server in
      // One comment every 50 ms: far under the idle timeout, no event, no byte bound in sight.
      let limits = ResponseLimits(maximumStreamDuration: 1)
      let outcome = try #require(
        try await stream("trickle-comments", on: server, limits: limits),
        "the comment stream was read for 60 s: nothing bounds a stream's time")
      #expect(outcome.chatError?.kind == .limitExceeded, "\(String(describing: outcome.error))")
      #expect(outcome.chatError?.message.contains("maximumStreamDuration") == true)
      #expect(outcome.chatError?.message.contains("after 1 s") == true)
      #expect(outcome.seconds < 50)
      #expect(try await disconnects("trickle-comments", seenBy: server) == 1)
    }
  }

  @Test(.enabled(if: defaultTransportSurvivesFastStreams, "see TransportCapabilities"))
  func `content that never ends stops at the default total bound`() async throws {
    try await FaultServer.with { server in
      // 64 KiB of content per event, as fast as the server can send: every event is
      // well within its bound, and without a total bound a session keeps all of it.
      // The deadline only catches a missing bound: 256 MiB through a Python server
      // takes ~20 s on a quiet machine and passed 120 s when the whole suite ran on 2 busy cores.
      let outcome = try #require(
        try await stream("flood", on: server, deadline: 400), "the flood was read for 400 s without a bound")
      #expect(outcome.chatError?.kind == .limitExceeded, "\(String(describing: outcome.error))")
      #expect(outcome.chatError?.message.contains("256 MiB") == true)
      #expect(outcome.chatError?.message.contains("maximumStreamBytes") == true)
      #expect(outcome.chunks > 3_000)
      #expect(try await disconnects("flood", seenBy: server) == 1)
    }
  }

  @Test func `the default limits bound a stream's size and time, and a non-finite duration means none`() {
    #expect(ResponseLimits().maximumStreamBytes == 256 << 20)
    #expect(ResponseLimits().maximumStreamDuration == 3_600)
    #expect(ResponseLimits(maximumStreamBytes: nil).maximumStreamBytes == nil)
    #expect(ResponseLimits(maximumStreamDuration: .infinity).maximumStreamDuration == nil)
    #expect(ResponseLimits(maximumStreamDuration: .nan).maximumStreamDuration == nil)
    #expect(ResponseLimits(maximumStreamDuration: -5).maximumStreamDuration == 0.001)
  }

  @Test func `a 200 HTML page says what came back and where, not the context window`() async throws {
    try await FaultServer.with { server in
      let key = "sk-html-portal-0123456789"
      let outcome = try #require(try await stream("html", on: server, apiKey: key))
      let error = try #require(outcome.chatError, "\(String(describing: outcome.error))")
      #expect(error.kind == .unexpectedContentType)
      #expect(error.status == 200)
      #expect(error.message.contains("Content-Type text/html; charset=utf-8 instead of text/event-stream"))
      #expect(error.message.contains("http://127.0.0.1:\(server.port)/html/v1/chat/completions"))
      #expect(error.message.contains("Sign in to continue"))
      #expect(!error.message.lowercased().contains("context window"))
      #expect(!error.message.contains(key) && error.message.contains("<redacted>"))
      #expect(!error.message.contains("\u{1B}"), "a terminal escape from the page reached the message")
      #expect(error.message.count < 600)
    }
  }
}
