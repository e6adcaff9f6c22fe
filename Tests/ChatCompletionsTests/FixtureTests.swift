import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// Streams a recorded body through ``ChatCompletionChunkStream`` in chunks of `size` bytes.
private func chunks(of fixture: String, size: Int) async throws -> [ChatCompletionChunk] {
  let data = try Fixtures.data(fixture)
  let body = AsyncThrowingStream<Data, any Error> { continuation in
    var offset = 0
    while offset < data.count {
      continuation.yield(data.subdata(in: offset..<min(offset + size, data.count)))
      offset += size
    }
    continuation.finish()
  }
  var result: [ChatCompletionChunk] = []
  for try await chunk in ChatCompletionChunkStream(body: body, decoder: ChunkDecoder()) {
    result.append(chunk)
  }
  return result
}

private func text(_ chunks: [ChatCompletionChunk]) -> String {
  chunks.compactMap { $0.choices.first?.delta.content }.joined()
}

@Suite(.timeLimit(.minutes(10))) struct FixtureTests {
  @Test(.timeLimit(.minutes(10)), arguments: [1, 7, 64, 100_000])
  func `the recorded text stream decodes the same in any chunk size`(size: Int) async throws {
    let decoded = try await chunks(of: "streamed-text.sse", size: size)
    // Read off the fixture by hand: 14 `data: {...}` events whose contents join to
    // this sentence, the last with finish_reason "stop", then `data: [DONE]`.
    #expect(decoded.count == 14)
    #expect(text(decoded) == "A colour is a magical realm where magic can be achieved.")
    #expect(decoded.first?.choices.first?.delta.role == "assistant")
    #expect(decoded.last?.choices.first?.finishReason == .stop)
  }

  @Test(.timeLimit(.minutes(10)))
  func `the recorded named tool call accumulates into one call with JSON arguments`() async throws {
    let decoded = try await chunks(of: "tool-call-named.sse", size: 13)
    let fragments = decoded.flatMap { $0.choices.flatMap(\.delta.toolCalls) }
    #expect(fragments.count > 2)
    #expect(Set(fragments.map(\.index)) == [0])
    // llama-cpp-python repeats the id and the name on every fragment: names must be set, not appended.
    #expect(Set(fragments.compactMap(\.function?.name)) == ["get_weather"])
    #expect(Set(fragments.compactMap(\.id)).count == 1)
    let arguments = fragments.compactMap(\.function?.arguments).joined()
    let object = try JSONSerialization.jsonObject(with: Data(arguments.utf8)) as? [String: Any]
    #expect(object?["city"] is String)
    #expect(decoded.last?.choices.first?.finishReason == .toolCalls)
  }

  @Test(.timeLimit(.minutes(10)))
  func `the recorded tool_choice required stream is plain text on llama-cpp-python`() async throws {
    let decoded = try await chunks(of: "tool-call-required.sse", size: 50)
    #expect(decoded.allSatisfy { $0.choices.allSatisfy(\.delta.toolCalls.isEmpty) })
    #expect(!text(decoded).isEmpty)
  }

  @Test(.timeLimit(.minutes(10)))
  func `the recorded json_object schema stream is JSON with the required keys`()
    async throws
  {
    let decoded = try await chunks(of: "json-object-schema.sse", size: 31)
    let object = try JSONSerialization.jsonObject(with: Data(text(decoded).utf8)) as? [String: Any]
    #expect(object?["name"] is String)
    #expect(object?["country"] is String)
  }

  @Test(.timeLimit(.minutes(10))) func `the recorded length-limited stream ends with finish reason length`()
    async throws
  {
    let decoded = try await chunks(of: "length-limit.sse", size: 40)
    #expect(decoded.last?.choices.first?.finishReason == .length)
  }

  @Test(.timeLimit(.minutes(10))) func `the recorded strict json_schema rejection maps to a server error`()
    throws
  {
    let failure = ErrorMapper().failure(
      status: 500, headers: HTTPHeaderFields(), body: try Fixtures.data("json-schema-strict.error.json"))
    guard case .other(let error) = failure else {
      Issue.record("expected a plain server error, got \(failure)")
      return
    }
    #expect(error.status == 500)
    #expect(error.type == "internal_server_error")
    #expect(error.message.contains("json_object"))
  }
}
