import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// A 2xx answer that is not an event stream is read for its excerpt up to
/// `EventStreamContentCheck.excerptBytes` (16 KiB), or
/// `ResponseLimits.maximumErrorBodyBytes` when that is smaller. A JSON error
/// object read whole is the server's error; one cut at the bound is not
/// parsed, and the failure says what came back instead.
@Suite(.timeLimit(.minutes(10)))
struct UnexpectedContentTypeBoundTests {
  /// `{"error":{"message":"` (21 bytes), `count` x's, then `"}}` (3 bytes): 24 + `count` bytes.
  private func envelope(messageBytes count: Int) -> String {
    #"{"error":{"message":""# + String(repeating: "x", count: count) + #""}}"#
  }

  private func error(
    answering body: String, limits: ResponseLimits = ResponseLimits()
  ) async throws -> ChatCompletionsError? {
    var endpoint = EndpointConfiguration(baseURL: try #require(URL(string: "http://model.test/v1")))
    endpoint.responseLimits = limits
    let client = ChatCompletionsClient(
      endpoint: endpoint, timeouts: ChatCompletionsTimeouts(10),
      transport: InMemoryTransport(.json(200, body)))
    do {
      for try await _ in try await client.streamChunks(requestBody: Data(#"{"stream":true}"#.utf8)) {}
    } catch {
      return error as? ChatCompletionsError
    }
    return nil
  }

  @Test func `an error object of exactly 16 KiB is read whole, one byte more is cut`() async throws {
    // 24 + 16,360 = 16,384 bytes = 16 KiB.
    let whole = try await error(answering: envelope(messageBytes: 16_360))
    #expect(whole?.kind == .errorEvent, "\(String(describing: whole))")
    #expect(whole?.message.hasPrefix("xxxx") == true)
    // 24 + 16,361 = 16,385 bytes.
    let cut = try await error(answering: envelope(messageBytes: 16_361))
    #expect(cut?.kind == .unexpectedContentType, "\(String(describing: cut))")
  }

  @Test func `a smaller error-body bound applies to the excerpt too`() async throws {
    let limits = ResponseLimits(maximumErrorBodyBytes: 100)
    // 24 + 76 = 100 bytes: at the bound.
    let whole = try await error(answering: envelope(messageBytes: 76), limits: limits)
    #expect(whole?.kind == .errorEvent, "\(String(describing: whole))")
    // 24 + 77 = 101 bytes: one past it.
    let cut = try await error(answering: envelope(messageBytes: 77), limits: limits)
    #expect(cut?.kind == .unexpectedContentType, "\(String(describing: cut))")
  }
}
