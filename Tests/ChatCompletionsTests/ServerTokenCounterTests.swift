import Foundation
import ModelSession
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// `ServerTokenCounter` against a scripted llama.cpp tokenizer that gives one
/// token per space-separated word, so every count is computed by hand: the
/// words plus the fallback's framing (4 per entry).
@Suite("server token counter", .timeLimit(.minutes(10))) struct ServerTokenCounterTests {
  let counter: ServerTokenCounter
  let tokenizeRequests: @Sendable () -> Int

  init() throws {
    let server = InMemoryTransport { request in
      guard request.url.path == "/tokenize" else { return .json(404, #"{"detail":"Not Found"}"#) }
      let content =
        try JSONDecoder().decode([String: String].self, from: request.body ?? Data())["content"] ?? ""
      let tokens = content.split(separator: " ").indices.map(String.init).joined(separator: ",")
      return .json(200, #"{"tokens":[\#(tokens)]}"#)
    }
    let endpoint = EndpointConfiguration(baseURL: try #require(URL(string: "http://model.test")))
    let client = ChatCompletionsClient(
      endpoint: endpoint, timeouts: ChatCompletionsTimeouts(5), transport: server)
    counter = ServerTokenCounter(tokenizer: ServerTokenizer(client: client, model: "m"))
    tokenizeRequests = { server.requests.filter { $0.url.path == "/tokenize" }.count }
  }

  private static func instructions(
    _ text: String, tools: [Transcript.ToolDefinition] = []
  ) -> Transcript.Entry {
    .instructions(
      Transcript.Instructions(
        id: "instructions", segments: [.text(.init(content: text))], toolDefinitions: tools))
  }

  @Test func `instructions that change under the same id are counted afresh`() async throws {
    // A session keeps the instructions' id when an instructions skill rewrites them.
    #expect(try await counter.tokenCount(of: Self.instructions("one two three")) == 4 + 3)
    #expect(try await counter.tokenCount(of: Self.instructions("one two three four five")) == 4 + 5)
    #expect(try await counter.tokenCounts(of: [Self.instructions("one")]) == [4 + 1])
    #expect(try await counter.tokenCounts(of: [Self.instructions("one two")]) == [4 + 2])
  }

  @Test func `the instructions' text is not given the count of the same id with its tools`() async throws {
    let tool = Transcript.ToolDefinition(
      name: "lookup", description: "finds things", parameters: String.generationSchema)
    let withTools = try await counter.tokenCount(of: Self.instructions("one two three", tools: [tool]))
    #expect(withTools > 4 + 3)
    // What the cache model asks for the instructions block: the text alone, same id.
    #expect(try await counter.tokenCount(of: Self.instructions("one two three")) == 4 + 3)
  }

  @Test func `other entries are counted once per id`() async throws {
    let prompt = Transcript.Entry.prompt(.init(id: "p1", segments: [.text(.init(content: "a b c"))]))
    #expect(try await counter.tokenCounts(of: [prompt, prompt]) == [4 + 3, 4 + 3])
    let asked = tokenizeRequests()
    #expect(try await counter.tokenCount(of: prompt) == 4 + 3)
    #expect(tokenizeRequests() == asked, "a remembered entry must not be tokenized again")
  }

  @Test func `a list of entries takes the counts remembered from single counts`() async throws {
    let prompt = Transcript.Entry.prompt(.init(id: "p2", segments: [.text(.init(content: "d e"))]))
    #expect(try await counter.tokenCount(of: prompt) == 4 + 2)
    let asked = tokenizeRequests()
    #expect(try await counter.tokenCounts(of: [prompt]) == [4 + 2])
    #expect(tokenizeRequests() == asked, "an entry counted alone must not be tokenized again in a list")
  }

  @Test func `without a tokenizer the estimate counts UTF-8 bytes, not characters`() async throws {
    let endpoint = EndpointConfiguration(baseURL: try #require(URL(string: "http://model.test")))
    let client = ChatCompletionsClient(
      endpoint: endpoint, timeouts: ChatCompletionsTimeouts(5),
      transport: InMemoryTransport(.json(404, #"{"detail":"Not Found"}"#)))
    let estimating = ServerTokenCounter(
      tokenizer: ServerTokenizer(client: client, model: "m"),
      fallback: EstimatingTokenCounter(bytesPerToken: 1))
    // "Grüße 👋": G r ü(2) ß(2) e, a space, 👋(4) = 12 bytes in 7 characters.
    #expect(try await estimating.tokenCount(of: "Grüße 👋") == 12)
  }
}
