import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// libcurl's transport reads a response head of at most
/// `CurlTransfer.maximumHeadBytes` (256 KiB): the status line, the header
/// lines and the blank line that ends them, each with its CRLF.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct CurlHeadBoundTests {
  /// Streams from the fault server's `long-head/<bytes>` mode through libcurl.
  private func outcome(headBytes: Int) async throws -> (text: String, error: ChatCompletionsError?) {
    try await FaultServer.with { server in
      let client = ChatCompletionsClient(
        endpoint: EndpointConfiguration(baseURL: try server.baseURL("long-head/\(headBytes)/v1")),
        timeouts: ChatCompletionsTimeouts(10), transport: CurlTransport())
      var text = ""
      do {
        for try await chunk in try await client.streamChunks(requestBody: Data(#"{"stream":true}"#.utf8)) {
          text += chunk.choices.first?.delta.content ?? ""
        }
      } catch {
        return (text, error as? ChatCompletionsError)
      }
      return (text, nil)
    }
  }

  @Test func `a head of exactly 256 KiB is read`() async throws {
    // 256 KiB = 262,144 bytes.
    let read = try await outcome(headBytes: 262_144)
    #expect(read.error == nil, "\(String(describing: read.error))")
    #expect(read.text == "Hello")
  }

  @Test func `a head one byte past 256 KiB is an invalid response`() async throws {
    let read = try await outcome(headBytes: 262_145)
    #expect(read.error?.kind == .invalidResponse, "\(String(describing: read.error))")
    #expect(read.error?.message.contains("longer than 262144 bytes") == true)
    #expect(read.text.isEmpty)
  }
}
