import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// A tokenizer's answer is read up to `ServerTokenizer.maximumAnswerBytes`
/// (64 MiB), and for a short text up to what its tokens can take
/// (`answerLimit(forTextBytes:)`): an answer of exactly the bound is read and
/// parsed, one byte more is a `limitExceeded` error instead of a token list
/// cut short.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct TokenizerAnswerBoundTests {
  /// `{"tokens":[1,2,3]}` (18 bytes) padded with spaces to `size` bytes.
  private func tokenize(
    answerBytes size: Int, text: String = String(repeating: "one two three ", count: 300_000)
  ) async throws -> Result<ServerTokenization?, any Error> {
    var answer = Data(#"{"tokens":[1,2,3]}"#.utf8)
    answer.append(Data(repeating: 0x20, count: size - answer.count))
    let body = answer
    let server = InMemoryTransport { request in
      guard request.url.path == "/tokenize" else { return .json(404, #"{"detail":"Not Found"}"#) }
      return InMemoryTransport.Answer(
        status: 200, headers: ["Content-Type": "application/json"], pieces: [body])
    }
    let client = ChatCompletionsClient(
      endpoint: EndpointConfiguration(baseURL: try #require(URL(string: "http://model.test"))),
      timeouts: ChatCompletionsTimeouts(30), transport: server)
    let tokenizer = ServerTokenizer(client: client, model: "m")
    do {
      return .success(try await tokenizer.tokenize(text))
    } catch {
      return .failure(error)
    }
  }

  @Test func `an answer of exactly 64 MiB is read whole`() async throws {
    // 64 MiB = 64 << 20 = 67,108,864 bytes.
    let result = try await tokenize(answerBytes: 64 << 20)
    let tokenization = try result.get()
    #expect(tokenization == ServerTokenization(tokens: [1, 2, 3], endpoint: .llamaCpp))
  }

  @Test func `an answer one byte past 64 MiB is refused as too large`() async throws {
    let result = try await tokenize(answerBytes: (64 << 20) + 1)
    guard case .failure(let error) = result else {
      Issue.record("a 64 MiB + 1 byte answer was accepted: \(result)")
      return
    }
    let chatError = try #require(error as? ChatCompletionsError, "\(error)")
    #expect(chatError.kind == .limitExceeded)
    #expect(chatError.message.contains("cut off at 64 MiB"), "\(chatError.message)")
  }

  @Test func `a short text's answer is bounded by what its tokens can take`() async throws {
    // 13 bytes: at most 13 + 16 tokens of 18 bytes each, and 64 KiB: 18 × 29 + 65,536 = 66,058 bytes.
    #expect(ServerTokenizer.answerLimit(forTextBytes: 13) == 66_058)
    #expect(ServerTokenizer.answerLimit(forTextBytes: 4_200_000) == 64 << 20)
    let exact = try await tokenize(answerBytes: 66_058, text: "one two three")
    #expect(try exact.get() == ServerTokenization(tokens: [1, 2, 3], endpoint: .llamaCpp))
    let result = try await tokenize(answerBytes: 66_059, text: "one two three")
    guard case .failure(let error) = result else {
      Issue.record("an answer past the short text's bound was accepted: \(result)")
      return
    }
    let chatError = try #require(error as? ChatCompletionsError, "\(error)")
    #expect(chatError.kind == .limitExceeded)
  }
}
