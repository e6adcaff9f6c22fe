import Foundation
import HTTPStreaming
import Testing

@testable import ChatCompletions

@Suite("Endpoint URL spelling", .timeLimit(.minutes(10))) struct EndpointURLSpellingTests {
  private func problem(_ text: String) throws -> String? {
    EndpointURLSpelling.problem(with: try #require(URL(string: text), "\(text)"))
  }

  @Test func `a URL both parsers read alike passes`() throws {
    for text in [
      "http://127.0.0.1:8080/v1", "https://api.example.com/v1", "http://user:pw@127.0.0.1:8080/v1",
      "HTTPS://Example.COM/v1/", "http://[::1]:8080/v1", "http://host/v1?api_key=abc",
    ] {
      #expect(try problem(text) == nil, "\(text)")
    }
  }

  @Test func `a scheme without two slashes, three slashes or no host is refused without its user info`()
    throws
  {
    for text in [
      "http:/user:sekrit@127.0.0.1:9/v1", "http:user:sekrit@127.0.0.1:9/v1",
      "http:///user:sekrit@127.0.0.1:9/v1",
      "https:/user:sekrit@127.0.0.1:9/v1",
    ] {
      let reason = try #require(try problem(text), "\(text) passed")
      #expect(reason.contains("without exactly two slashes before its host"), "\(reason)")
      #expect(!reason.contains("sekrit"))
    }
    #expect(try problem("ftp://host/v1") == "the URL's scheme is ftp, not http or https")
  }

  @Test func `the redaction pass hides user info in every spelling libcurl reads as user info`() {
    let redaction = Redaction(secrets: [])
    for text in [
      "http:/user:sekrit@host/v1", "http:user:sekrit@host/v1", "http:///user:sekrit@host/v1",
      "HTTP:/user:sekrit@host/v1", "http://user:sekrit@host/v1",
    ] {
      let redacted = redaction.apply(to: "endpoint \(text) failed")
      #expect(!redacted.contains("sekrit") && redacted.contains("host/v1"), "\(redacted)")
    }
  }

  @Test func `a session on an ambiguous URL fails before any request, its error holding no password`()
    async throws
  {
    let transport = InMemoryTransport { _ in .json(200, "{}") }
    let url = try #require(URL(string: "http:/user:sekrit@127.0.0.1:9/v1"))
    let client = ChatCompletionsClient(
      endpoint: EndpointConfiguration(baseURL: url), timeouts: ChatCompletionsTimeouts(30),
      transport: transport)
    do {
      _ = try await client.streamChunks(requestBody: Data("{}".utf8))
      Issue.record("the request was sent")
    } catch {
      let chatError = try #require(error as? ChatCompletionsError, "\(error)")
      #expect(chatError.kind == .connectionFailed)
      #expect(chatError.message.hasPrefix("refused before any request: the URL is spelled http: without"))
      #expect(!"\(error)".contains("sekrit") && !String(reflecting: error).contains("sekrit"))
    }
    #expect(transport.requests.isEmpty)
  }
}
