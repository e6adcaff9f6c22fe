import Foundation
import ModelSession
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// libcurl takes its connect timeout in whole milliseconds, where 0 means its
/// own default of 300 seconds: a timeout under a millisecond must round up to
/// 1 ms, not down to "no timeout of ours".
@Suite(.serialized, .timeLimit(.minutes(10)))
struct CurlConnectTimeoutRoundingTests {
  @Test func `a connect timeout of 0.4 ms is one millisecond, not none`() async throws {
    try await FaultServer.with { server in
      let port = try #require(server.blackholePort)
      let client = ChatCompletionsClient(
        endpoint: EndpointConfiguration(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)"))),
        // 0.0004 s = 0.4 ms, rounded up to 1 ms (rounded down it would be 0: libcurl's 300 s).
        timeouts: ChatCompletionsTimeouts(connect: 0.0004, firstByte: 60, idle: 60),
        transport: CurlTransport())
      let attempt = Task { () throws -> String? in
        do {
          for try await _ in try await client.streamChunks(requestBody: Data(#"{"stream":true}"#.utf8)) {}
          return "no error"
        } catch {
          guard case .timeout(let payload) = error as? LanguageModelError else { return "\(error)" }
          return payload.metadata["timeout"] as? String
        }
      }
      // The deadline: far over 1 ms, far under libcurl's 300 s default (nil: still connecting).
      let stage = try await value(of: attempt, within: .seconds(20))
      #expect(stage == "connect")
    }
  }
}
