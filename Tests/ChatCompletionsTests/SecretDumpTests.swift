import Foundation
import ModelSession
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// Every value that holds an endpoint's secrets, dumped or described the way
/// an app's logging or a debugger would: the client, the executor, the
/// tokenizer and token counter, a chunk stream, and a session holding the
/// model. None may show a secret.
@Suite(.timeLimit(.minutes(10)))
struct SecretDumpTests {
  private static let secrets = [
    "sk-dump-key-0123456789", "url-password-xyz", "query-token-abc", "subscription-secret", "cookie-value-42",
  ]

  private static func endpoint() throws -> EndpointConfiguration {
    EndpointConfiguration(
      baseURL: try #require(
        URL(string: "http://user:url-password-xyz@model.test/v1?api_key=query-token-abc")),
      apiKey: "sk-dump-key-0123456789",
      additionalHeaders: [
        "Ocp-Apim-Subscription-Key": "subscription-secret", "Cookie": "session=cookie-value-42",
      ])
  }

  /// Every text an app could print about `value`.
  private static func texts(of value: Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped, maxDepth: 12)
    return [dumped, String(describing: value), String(reflecting: value)]
  }

  private static func expectNoSecret(in value: Any, _ what: String) {
    for text in texts(of: value) {
      for secret in secrets {
        #expect(!text.contains(secret), "\(what) shows \(secret): \(text.prefix(2_000))")
      }
    }
  }

  @Test func `the client, executor, tokenizer and token counter dump without secrets`() throws {
    let endpoint = try Self.endpoint()
    let client = ChatCompletionsClient(endpoint: endpoint, timeout: 5)
    Self.expectNoSecret(in: client, "ChatCompletionsClient")
    let model = ChatCompletionsLanguageModel(
      name: "m", baseURL: endpoint.baseURL, apiKey: "sk-dump-key-0123456789")
    Self.expectNoSecret(in: model, "ChatCompletionsLanguageModel")
    Self.expectNoSecret(
      in: ChatCompletionsExecutor(configuration: ChatCompletionsExecutor.Configuration(endpoint: endpoint)),
      "ChatCompletionsExecutor")
    Self.expectNoSecret(in: ServerTokenizer(client: client, model: "m"), "ServerTokenizer")
    Self.expectNoSecret(in: ServerTokenCounter(model: model), "ServerTokenCounter")
    Self.expectNoSecret(in: LanguageModelSession(model: model), "LanguageModelSession")
  }

  @Test func `a chunk stream and a request dump without secrets`() async throws {
    let transport = InMemoryTransport(.stream("data: [DONE]\n\n"))
    let client = ChatCompletionsClient(
      endpoint: try Self.endpoint(), timeouts: ChatCompletionsTimeouts(5), transport: transport)
    let stream = try await client.streamChunks(requestBody: Data("{}".utf8))
    Self.expectNoSecret(in: stream, "ChatCompletionChunkStream")
    let request = try #require(transport.requests.first)
    Self.expectNoSecret(in: request, "HTTPRequest")
  }
}
