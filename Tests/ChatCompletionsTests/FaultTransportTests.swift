import Foundation
import ModelSession
import TestSupport
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// What a streamed request to one fault mode gave: the chunks before the failure, and the failure.
private struct Outcome {
  var chunks: [ChatCompletionChunk] = []
  var error: (any Error)?
  var seconds: Double = 0

  var chatError: ChatCompletionsError? { error as? ChatCompletionsError }
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

/// The stage of a timeout error, or `nil` when `error` is not one.
private func timeoutStage(_ error: (any Error)?) -> String? {
  guard case .timeout(let payload) = error as? LanguageModelError else { return nil }
  return payload.metadata["timeout"] as? String
}

/// How many `endless` streams of the fault server saw their client go away,
/// waiting (on the server's `/await`) up to 5 seconds for the first.
private func disconnects(seenBy server: FaultServer) async throws -> Int {
  try await server.occurrences(of: "endless", waitingUpTo: 5)
}

@Suite(.timeLimit(.minutes(10))) struct FaultTransportTests {
  @Test(.timeLimit(.minutes(20))) func `a server that stalls mid-stream past the timeout is a timeout`()
    async throws
  {
    let outcome = try await FaultServer.with { try await stream("stall", on: $0, timeout: 1) }
    #expect(outcome.text == "Hello")
    #expect(timeoutStage(outcome.error) == "idle", "\(String(describing: outcome.error))")
    // The stage proves the client's timer fired: had it not, the server's 30 s
    // stall would end in a closed connection, not a timeout. No wall-clock bound:
    // on a loaded machine even a 1 s timer can take long to be served.
    print("timed out after \(outcome.seconds) s with a 1 s timeout")
  }

  @Test(.timeLimit(.minutes(20))) func `a server that stalls before the head past the timeout is a timeout`()
    async throws
  {
    let outcome = try await FaultServer.with { try await stream("stall-head", on: $0, timeout: 1) }
    #expect(timeoutStage(outcome.error) == "firstByte", "\(String(describing: outcome.error))")
    // The stage proves the client's timer fired: had it not, the server's 30 s
    // stall would end in a closed connection, not a timeout. No wall-clock bound:
    // on a loaded machine even a 1 s timer can take long to be served.
    print("timed out after \(outcome.seconds) s with a 1 s timeout")
  }

  @Test(.timeLimit(.minutes(20)), arguments: ["reset", "reset-head"])
  func `a connection reset is a connection failure`(mode: String) async throws {
    let outcome = try await FaultServer.with { try await stream(mode, on: $0) }
    // A reset is a transport error, whether it comes before the head or after a chunk: never
    // mistaken for a stream the server ended early (truncatedStream).
    #expect(outcome.chatError?.kind == .connectionFailed, "got \(String(describing: outcome.error))")
  }

  @Test(.timeLimit(.minutes(20))) func `a refused connection is a connection failure`() async throws {
    let port = try await FaultServer.with { $0.port }
    let endpoint = EndpointConfiguration(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")))
    let client = ChatCompletionsClient(endpoint: endpoint, timeout: 5)
    await #expect {
      _ = try await client.streamChunks(requestBody: Data("{}".utf8))
    } throws: { error in
      (error as? ChatCompletionsError)?.kind == .connectionFailed
    }
  }

  @Test(.timeLimit(.minutes(20)))
  func `cancelling the consuming task ends the stream and closes the connection`() async throws {
    try await FaultServer.with { server in
      let client = ChatCompletionsClient(
        endpoint: EndpointConfiguration(baseURL: try server.baseURL("endless")))
      let streaming = TestSignal()
      let consumer = Task {
        var received = 0
        for try await _ in try await client.streamChunks(requestBody: Data("{}".utf8)) {
          received += 1
          if received == 3 { streaming.fire() }
        }
      }
      // Cancel only once three chunks have arrived: the cancel lands mid-stream.
      try await streaming.wait(upTo: .seconds(60))
      consumer.cancel()
      let result = await consumer.result
      if case .success = result {
        Issue.record("the endless stream ended without an error")
      }
      #expect(throws: CancellationError.self) { try result.get() }
      #expect(try await disconnects(seenBy: server) == 1, "the server did not see the connection close")
      #expect(
        try await eventually { client.transport.inFlightRequestCount == 0 },
        "the transport still counts the cancelled transfer as open after 5 seconds")
    }
  }

  @Test(.timeLimit(.minutes(20))) func `leaving the loop early closes the connection`() async throws {
    try await FaultServer.with { server in
      let client = ChatCompletionsClient(
        endpoint: EndpointConfiguration(baseURL: try server.baseURL("endless")))
      let consumer = Task {
        var received = 0
        for try await _ in try await client.streamChunks(requestBody: Data("{}".utf8)) {
          received += 1
          if received == 3 {
            break
          }
        }
        return received
      }
      let received = try await value(of: consumer, within: .seconds(60))
      try #require(received == 3, "the endless stream did not give 3 chunks within 60 s")
      #expect(try await disconnects(seenBy: server) == 1, "the server did not see the connection close")
      #expect(client.transport.inFlightRequestCount == 0)
    }
  }
}
