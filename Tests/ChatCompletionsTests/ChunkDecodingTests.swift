import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

private func decodeChunk(_ json: String) throws -> ChatCompletionChunk {
  try JSONDecoder().decode(ChatCompletionChunk.self, from: Data(json.utf8))
}

/// The values each count of a usage or timings object is fed, and the count
/// each must give (`nil`: refused).
private let boundaryCounts: [(text: String, accepted: Int?)] = [
  ("0", 0), ("7", 7), ("9007199254740992", 1 << 53), ("9007199254740993", nil), ("9223372036854775807", nil),
  ("-9223372036854775808", nil), ("-1", nil), ("1.5", nil), ("1e300", nil), ("\"12\"", nil),
]

@Suite(.timeLimit(.minutes(10))) struct ChunkDecodingTests {
  @Test(.timeLimit(.minutes(10))) func `a content delta decodes`() throws {
    let chunk = try decodeChunk(
      #"{"id":"c1","object":"chat.completion.chunk","model":"m","system_fingerprint":"fp","#
        + #""choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}"#)
    #expect(chunk.id == "c1")
    #expect(chunk.systemFingerprint == "fp")
    #expect(chunk.choices.first?.delta.role == "assistant")
    #expect(chunk.choices.first?.delta.content == "Hi")
    #expect(chunk.choices.first?.finishReason == nil)
  }

  @Test(.timeLimit(.minutes(10))) func `reasoning content decodes under either name`() throws {
    let deepSeek = try decodeChunk(#"{"choices":[{"index":0,"delta":{"reasoning_content":"think"}}]}"#)
    let ollama = try decodeChunk(#"{"choices":[{"index":0,"delta":{"reasoning":"think"}}]}"#)
    #expect(deepSeek.choices.first?.delta.reasoningContent == "think")
    #expect(ollama.choices.first?.delta.reasoningContent == "think")
  }

  @Test(.timeLimit(.minutes(10))) func `tool call fragments decode with index, id, name and arguments`()
    throws
  {
    let chunk = try decodeChunk(
      #"{"choices":[{"index":0,"delta":{"content":"ok","tool_calls":["#
        + #"{"index":0,"id":"call_1","type":"function","function":{"name":"lookup","arguments":"{\"q\":"}},"#
        + #"{"index":1,"function":{"arguments":"\"x\"}"}}]},"finish_reason":"tool_calls"}]}"#)
    let delta = try #require(chunk.choices.first?.delta)
    #expect(delta.content == "ok")
    #expect(
      delta.toolCalls == [
        .init(
          index: 0, id: "call_1", type: "function", function: .init(name: "lookup", arguments: #"{"q":"#)),
        .init(index: 1, function: .init(arguments: #""x"}"#)),
      ])
    #expect(chunk.choices.first?.finishReason == .toolCalls)
  }

  @Test(.timeLimit(.minutes(10)))
  func `a tool call without index takes its position, one without id keeps none`() throws {
    let chunk = try decodeChunk(
      #"{"choices":[{"delta":{"tool_calls":[{"function":{"name":"a","arguments":"{}"}},"#
        + #"{"function":{"name":"b","arguments":"{}"}}]}}]}"#)
    let calls = try #require(chunk.choices.first?.delta.toolCalls)
    #expect(calls.map(\.index) == [0, 1])
    #expect(calls.map(\.id) == [nil, nil])
    #expect(calls.map(\.function?.name) == ["a", "b"])
  }

  @Test(.timeLimit(.minutes(10))) func `null fields and a missing delta decode as empty`() throws {
    let chunk = try decodeChunk(
      #"{"choices":[{"index":0,"delta":{"content":null,"tool_calls":null}},{"index":1,"finish_reason":"length"}]}"#
    )
    #expect(chunk.choices[0].delta == .init())
    #expect(chunk.choices[1].delta == .init())
    #expect(chunk.choices[1].finishReason == .length)
  }

  @Test(.timeLimit(.minutes(10))) func `the usage chunk decodes cached and reasoning tokens`() throws {
    let chunk = try decodeChunk(
      #"{"choices":[],"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120,"#
        + #""prompt_tokens_details":{"cached_tokens":64},"completion_tokens_details":{"reasoning_tokens":5}}}"#
    )
    #expect(chunk.choices.isEmpty)
    #expect(
      chunk.usage
        == .init(
          promptTokens: 100, completionTokens: 20, totalTokens: 120, cachedPromptTokens: 64,
          reasoningTokens: 5)
    )
  }

  @Test(.timeLimit(.minutes(10))) func `usage without details or total decodes`() throws {
    let chunk = try decodeChunk(
      #"{"usage":{"prompt_tokens":3,"completion_tokens":4,"prompt_tokens_details":null}}"#)
    #expect(chunk.usage == .init(promptTokens: 3, completionTokens: 4))
    #expect(chunk.usage?.totalTokens == 7)
    #expect(chunk.choices.isEmpty)
  }

  @Test(.timeLimit(.minutes(10))) func `unknown finish reasons keep their text`() throws {
    let chunk = try decodeChunk(#"{"choices":[{"index":0,"delta":{},"finish_reason":"eos_token"}]}"#)
    #expect(chunk.choices.first?.finishReason?.rawValue == "eos_token")
    #expect(chunk.choices.first?.finishReason != .stop)
  }

  @Test(.timeLimit(.minutes(10))) func `the decoder turns events into chunks, DONE and nothing`() throws {
    let decoder = ChunkDecoder()
    #expect(try decoder.decode(ServerSentEvent(data: "[DONE]")) == .done)
    #expect(try decoder.decode(ServerSentEvent(data: "  ")) == nil)
    let item = try decoder.decode(
      ServerSentEvent(data: #"{"choices":[{"index":0,"delta":{"content":"a"}}]}"#))
    guard case .chunk(let chunk) = item else {
      Issue.record("expected a chunk, got \(String(describing: item))")
      return
    }
    #expect(chunk.choices.first?.delta.content == "a")
  }

  @Test(.timeLimit(.minutes(10))) func `an error envelope mid-stream becomes the typed error`() {
    let decoder = ChunkDecoder()
    #expect {
      try decoder.decode(
        ServerSentEvent(data: #"{"error":{"message":"model crashed","type":"server_error","code":500}}"#))
    } throws: { error in
      guard case .other(let details) = error as? ChatCompletionsFailure else { return false }
      return details.kind == .errorEvent && details.message == "model crashed"
        && details.type == "server_error"
        && details.code == "500" && details.status == 500
    }
  }

  @Test(.timeLimit(.minutes(10))) func `a context size error event is a context size failure`() {
    let decoder = ChunkDecoder()
    #expect {
      try decoder.decode(
        ServerSentEvent(
          data: #"{"error":{"code":400,"message":"the request exceeds the available context size","#
            + #""type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}"#))
    } throws: { error in
      guard case .contextSizeExceeded(let contextSize, let tokenCount, _) = error as? ChatCompletionsFailure
      else {
        return false
      }
      return contextSize == 4096 && tokenCount == 5000
    }
  }

  @Test(.timeLimit(.minutes(10))) func `error events in other shapes are recognised`() {
    let decoder = ChunkDecoder()
    for data in [
      #"{"error":"ollama says no"}"#, #"{"object":"error","message":"vllm says no","type":"BadRequest"}"#,
    ] {
      #expect(throws: ChatCompletionsFailure.self) { try decoder.decode(ServerSentEvent(data: data)) }
    }
    #expect(throws: ChatCompletionsFailure.self) {
      try decoder.decode(ServerSentEvent(type: "error", data: "plain text failure"))
    }
  }

  @Test(.timeLimit(.minutes(10))) func `a malformed chunk is a malformed chunk failure`() {
    let decoder = ChunkDecoder()
    for data in ["{not json}", #"{"choices":"nope"}"#, "[1,2]"] {
      #expect {
        try decoder.decode(ServerSentEvent(data: data))
      } throws: { error in
        (error as? ChatCompletionsFailure)?.error.kind == .malformedChunk
      }
    }
  }

  @Test(.timeLimit(.minutes(10))) func `a chunk that mentions error in its content is still a chunk`() throws
  {
    let item = try ChunkDecoder().decode(
      ServerSentEvent(data: #"{"choices":[{"index":0,"delta":{"content":"\"error\" is a word"}}]}"#))
    guard case .chunk(let chunk) = item else {
      Issue.record("decoded as \(String(describing: item)), not a chunk")
      return
    }
    #expect(chunk.choices.first?.delta.content == #""error" is a word"#)
  }

  @Test(.timeLimit(.minutes(10))) func `llama.cpp timings decode the cached and processed prompt tokens`()
    throws
  {
    let chunk = try decodeChunk(
      #"{"choices":[],"timings":{"cache_n":236,"prompt_n":12,"prompt_ms":30.5,"predicted_n":48,"#
        + #""predicted_per_second":71.2}}"#)
    #expect(chunk.timings == .init(cachedPromptTokens: 236, processedPromptTokens: 12, predictedTokens: 48))
    #expect(chunk.timings?.promptTokens == 248)
  }

  @Test(.timeLimit(.minutes(10))) func `timings that do not decode are ignored, not fatal`() throws {
    let chunk = try decodeChunk(#"{"choices":[],"timings":{"cache_n":"many"}}"#)
    #expect(chunk.timings == nil)
  }

  @Test(.timeLimit(.minutes(10))) func `each known finish reason spelling decodes to its named reason`()
    throws
  {
    let spellings: [(String, ChatCompletionChunk.FinishReason)] = [
      ("stop", .stop), ("length", .length), ("tool_calls", .toolCalls), ("content_filter", .contentFilter),
      ("function_call", .functionCall),
    ]
    for (spelling, reason) in spellings {
      let chunk = try decodeChunk(
        #"{"choices":[{"index":0,"delta":{},"finish_reason":""# + spelling + #""}]}"#)
      #expect(chunk.choices.first?.finishReason == reason, "\(spelling)")
    }
  }

  @Test(.timeLimit(.minutes(10)))
  func `prompt token details without cached_tokens leave the cached count unknown`()
    throws
  {
    let chunk = try decodeChunk(
      #"{"usage":{"prompt_tokens":5,"completion_tokens":1,"prompt_tokens_details":{"audio_tokens":0}}}"#)
    #expect(chunk.usage == .init(promptTokens: 5, completionTokens: 1))
    #expect(chunk.usage?.cachedPromptTokens == nil)
  }

  @Test(.timeLimit(.minutes(10))) func `null completion token details decode as no reasoning count`() throws {
    // The completion side of `usage without details or total decodes`: vLLM sends null details.
    let chunk = try decodeChunk(
      #"{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7,"#
        + #""prompt_tokens_details":{"cached_tokens":2},"completion_tokens_details":null}}"#)
    #expect(chunk.usage == .init(promptTokens: 3, completionTokens: 4, cachedPromptTokens: 2))
    #expect(chunk.usage?.reasoningTokens == nil)
  }

  @Test(.timeLimit(.minutes(10)))
  func `every usage count fed boundary values reads as written or is a malformed chunk naming it`() throws {
    let fields: [(path: String, json: (String) -> String, read: (ChatCompletionChunk.Usage) -> Int?)] = [
      ("usage.prompt_tokens", { #"{"prompt_tokens":\#($0),"completion_tokens":1}"# }, { $0.promptTokens }),
      (
        "usage.completion_tokens", { #"{"prompt_tokens":1,"completion_tokens":\#($0)}"# },
        { $0.completionTokens }
      ),
      ("usage.total_tokens", { #"{"prompt_tokens":1,"total_tokens":\#($0)}"# }, { $0.totalTokens }),
      (
        "usage.prompt_tokens_details.cached_tokens",
        { #"{"prompt_tokens_details":{"cached_tokens":\#($0)}}"# },
        { $0.cachedPromptTokens }
      ),
      (
        "usage.completion_tokens_details.reasoning_tokens",
        { #"{"completion_tokens_details":{"reasoning_tokens":\#($0)}}"# }, { $0.reasoningTokens }
      ),
      (
        "usage.prompt_cache_hit_tokens", { #"{"prompt_cache_hit_tokens":\#($0)}"# },
        { $0.promptCacheHitTokens }
      ),
      (
        "usage.prompt_cache_miss_tokens", { #"{"prompt_cache_miss_tokens":\#($0)}"# },
        { $0.promptCacheMissTokens }
      ),
    ]
    let decoder = ChunkDecoder()
    for field in fields {
      for (literal, accepted) in boundaryCounts {
        let event = ServerSentEvent(data: #"{"choices":[],"usage":\#(field.json(literal))}"#)
        do {
          guard case .chunk(let chunk) = try decoder.decode(event), let usage = chunk.usage else {
            Issue.record("\(field.path) = \(literal): no usage")
            continue
          }
          #expect(accepted != nil && field.read(usage) == accepted, "\(field.path) = \(literal) was accepted")
        } catch {
          #expect(accepted == nil, "\(field.path) = \(literal) was refused: \(error)")
          #expect(error.error.kind == .malformedChunk)
          #expect(
            error.error.message.contains("\(field.path): "),
            "\(field.path) = \(literal): \(error.error.message)")
          #expect(error.error.message.contains("is not a whole number from 0 to 9007199254740992"))
        }
      }
    }
  }

  @Test(.timeLimit(.minutes(10)))
  func `a fractional prompt_tokens is refused saying so, not as invalid JSON`() {
    let event = ServerSentEvent(data: #"{"choices":[],"usage":{"prompt_tokens":1.5,"completion_tokens":2}}"#)
    #expect {
      try ChunkDecoder().decode(event)
    } throws: { error in
      let message = (error as? ChatCompletionsFailure)?.error.message ?? ""
      return message.hasPrefix(
        "not a chat completion chunk (usage.prompt_tokens: 1.5 is not a whole number from 0 to "
          + "9007199254740992)")
    }
  }

  @Test(.timeLimit(.minutes(10)))
  func `usage without a total at the largest counts adds up without overflow`()
    throws
  {
    let chunk = try decodeChunk(
      #"{"choices":[],"usage":{"prompt_tokens":9007199254740992,"completion_tokens":9007199254740992}}"#)
    #expect(chunk.usage?.totalTokens == 1 << 54)
    #expect(ChatCompletionChunk.Usage(promptTokens: .max, completionTokens: .max).totalTokens == .max)
  }

  @Test(.timeLimit(.minutes(10)))
  func `timings fed boundary values read as written or are left out, never summed past Int`()
    throws
  {
    for key in ["cache_n", "prompt_n", "predicted_n"] {
      for (literal, accepted) in boundaryCounts {
        let fields = ["cache_n", "prompt_n", "predicted_n"].map { #""\#($0)":\#($0 == key ? literal : "1")"# }
        let chunk = try decodeChunk(#"{"choices":[],"timings":{\#(fields.joined(separator: ","))}}"#)
        if let accepted {
          let timings = try #require(chunk.timings, "\(key) = \(literal)")
          let read =
            key == "cache_n"
            ? timings.cachedPromptTokens
            : key == "prompt_n" ? timings.processedPromptTokens : timings.predictedTokens
          #expect(read == accepted)
        } else {
          #expect(chunk.timings == nil, "\(key) = \(literal) was accepted")
        }
      }
    }
    #expect(
      ChatCompletionChunk.Timings(cachedPromptTokens: .max, processedPromptTokens: .max).promptTokens == .max)
  }
}
