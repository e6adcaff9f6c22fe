import Foundation
import ModelSession
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// The usage the session gets from a stream of hand-written chunks (each a
/// server's JSON, as it sends it): the prompt's size, the cached count and
/// the field it came from.
private func input(_ chunks: [String]) throws -> GenerationUsage.Input? {
  var translator = EventTranslator(responseEntryID: "R", toolCallsEntryID: "T", reasoningEntryID: "Z")
  let decoder = ChunkDecoder()
  var latest: GenerationUsage.Input?
  for json in chunks {
    guard case .chunk(let chunk) = try decoder.decode(ServerSentEvent(data: json)) else { continue }
    for event in try translator.translate(chunk) {
      if case .response(_, .updateUsage(let input, _)) = event { latest = input }
    }
  }
  try translator.finish()
  return latest
}

private let content = #"{"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}"#

/// Every known spelling of the server's cached-token figure, read into
/// `usage.input` with its source; silence is unknown (`nil`), never 0.
@Suite("Cached-token figures of each server", .timeLimit(.minutes(10)))
struct ChatCompletionChunkUsageTests {
  @Test func `OpenAI and vLLM: prompt_tokens_details on a final chunk without choices`() throws {
    let usage = try input([
      content,
      #"{"choices":[],"usage":{"prompt_tokens":2006,"completion_tokens":300,"total_tokens":2306,"#
        + #""prompt_tokens_details":{"cached_tokens":1920,"audio_tokens":null}}}"#,
    ])
    #expect(
      usage
        == .init(
          totalTokenCount: 2006, reportedCachedTokenCount: 1920, cachedTokenSource: .promptTokensDetails))
    #expect(usage?.cachedTokenSource?.rawValue == "usage.prompt_tokens_details.cached_tokens")
  }

  @Test func `DeepSeek: hit and miss counts on the last content chunk`() throws {
    let usage = try input([
      content,
      #"{"choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":75,"#
        + #""completion_tokens":11,"total_tokens":86,"prompt_cache_hit_tokens":64,"prompt_cache_miss_tokens":11}}"#,
    ])
    #expect(
      usage
        == .init(totalTokenCount: 75, reportedCachedTokenCount: 64, cachedTokenSource: .promptCacheHitTokens))
    #expect(usage?.cachedTokenSource?.rawValue == "usage.prompt_cache_hit_tokens")
  }

  @Test func `DeepSeek without prompt_tokens: the prompt is hit plus miss`() throws {
    let usage = try input([
      content,
      #"{"choices":[],"usage":{"completion_tokens":3,"prompt_cache_hit_tokens":0,"prompt_cache_miss_tokens":40}}"#,
    ])
    #expect(
      usage
        == .init(totalTokenCount: 40, reportedCachedTokenCount: 0, cachedTokenSource: .promptCacheHitTokens))
  }

  @Test func `DeepSeek with both spellings: prompt_tokens_details is read`() throws {
    let usage = try input([
      content,
      #"{"choices":[],"usage":{"prompt_tokens":11,"completion_tokens":11,"prompt_tokens_details":{"cached_tokens":0},"#
        + #""prompt_cache_hit_tokens":0,"prompt_cache_miss_tokens":11}}"#,
    ])
    #expect(
      usage
        == .init(totalTokenCount: 11, reportedCachedTokenCount: 0, cachedTokenSource: .promptTokensDetails))
  }

  @Test func `llama-server before 2026: timings alone on the finishing chunk`() throws {
    let usage = try input([
      #"{"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}],"#
        + #""timings":{"cache_n":236,"prompt_n":12,"prompt_ms":30.1,"predicted_n":5}}"#
    ])
    #expect(
      usage == .init(totalTokenCount: 248, reportedCachedTokenCount: 236, cachedTokenSource: .llamaCppTimings)
    )
    #expect(usage?.cachedTokenSource?.rawValue == "timings.cache_n")
  }

  @Test func `llama-server since 2026: prompt_tokens_details beside the timings`() throws {
    let usage = try input([
      content,
      #"{"choices":[],"usage":{"prompt_tokens":248,"completion_tokens":5,"prompt_tokens_details":{"cached_tokens":236}},"#
        + #""timings":{"cache_n":236,"prompt_n":12}}"#,
    ])
    #expect(
      usage
        == .init(totalTokenCount: 248, reportedCachedTokenCount: 236, cachedTokenSource: .promptTokensDetails)
    )
  }

  @Test func `SGLang without a cache report, Ollama, llama-cpp-python: unknown, not 0`() throws {
    for last in [
      #"{"choices":[],"usage":{"prompt_tokens":4212,"completion_tokens":9,"prompt_tokens_details":null}}"#,
      #"{"choices":[],"usage":{"prompt_tokens":4212,"completion_tokens":9}}"#,
      #"{"choices":[],"usage":{"prompt_tokens":4212,"completion_tokens":9,"prompt_tokens_details":{"audio_tokens":0}}}"#,
    ] {
      let usage = try #require(try input([content, last]))
      #expect(usage.totalTokenCount == 4212)
      #expect(usage.reportedCachedTokenCount == nil, "\(last)")
      #expect(usage.cachedTokenSource == nil, "\(last)")
    }
  }

  @Test func `a stream without usage gives no usage at all`() throws {
    #expect(try input([content]) == nil)
  }

  @Test func `a cached figure larger than the prompt is no figure`() throws {
    for last in [
      #"{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":1,"prompt_tokens_details":{"cached_tokens":11}}}"#,
      #"{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":1,"prompt_cache_hit_tokens":11}}"#,
      #"{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":1},"timings":{"cache_n":11}}"#,
    ] {
      let usage = try #require(try input([content, last]))
      #expect(usage.totalTokenCount == 10)
      #expect(usage.reportedCachedTokenCount == nil, "\(last)")
    }
  }

  @Test func `a non-streamed answer's usage object reads the same`() throws {
    // `chat.completion` (not streamed) carries the same `usage` object; the figure is read the same way.
    let body = #"""
      {"id":"c1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},
      "finish_reason":"stop"}],"usage":{"prompt_tokens":30,"completion_tokens":2,"prompt_cache_hit_tokens":16,
      "prompt_cache_miss_tokens":14}}
      """#
    struct Completion: Decodable { var usage: ChatCompletionChunk.Usage }
    let usage = try JSONDecoder().decode(Completion.self, from: Data(body.utf8)).usage
    #expect(usage.cachedPromptTokenFigure?.count == 16)
    #expect(usage.cachedPromptTokenFigure?.source == .promptCacheHitTokens)
    #expect(usage.promptTokens == 30 && usage.promptCacheMissTokens == 14)
  }

  @Test func `the source is kept through a records file and dropped without a count`() throws {
    let input = GenerationUsage.Input(
      totalTokenCount: 30, reportedCachedTokenCount: 16, cachedTokenSource: .promptCacheHitTokens)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(input), as: UTF8.self)
    #expect(
      json
        == #"{"cachedTokenCount":16,"cachedTokenSource":"usage.prompt_cache_hit_tokens","totalTokenCount":30}"#
    )
    #expect(try JSONDecoder().decode(GenerationUsage.Input.self, from: Data(json.utf8)) == input)
    let unknown = GenerationUsage.Input(totalTokenCount: 30, cachedTokenSource: .promptCacheHitTokens)
    #expect(unknown.cachedTokenSource == nil)
  }
}
