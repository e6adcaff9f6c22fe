import Testing

@testable import ContextKitDemo

@Suite(.timeLimit(.minutes(5))) struct `llama-cpp-python log` {
  @Test func `requests are split at their closing timing lines, with or without a prefix match`() throws {
    let text = """
      INFO:     127.0.0.1:42702 - "POST /v1/chat/completions HTTP/1.1" 200 OK
      llama_perf_context_print:        load time =    2761.14 ms
      llama_perf_context_print: prompt eval time =    2760.86 ms /    21 tokens (  131.47 ms per token,     7.61 tokens per second)
      llama_perf_context_print:        eval time =      54.17 ms /     4 runs   (   13.54 ms per token,    73.85 tokens per second)
      llama_perf_context_print:       total time =    2912.42 ms /    25 tokens
      INFO:     127.0.0.1:42706 - "POST /v1/chat/completions HTTP/1.1" 200 OK
      Llama.generate: 20 prefix-match hit, remaining 1 prompt tokens to eval
      llama_perf_context_print: prompt eval time =       0.00 ms /     1 tokens (    0.00 ms per token,      inf tokens per second)
      llama_perf_context_print:       total time =      39.99 ms /     6 tokens
      Llama.generate: 30 prefix-match hit, remaining 4 prompt tokens to eval
      """
    let requests = try LlamaCppPythonLog.requests(in: text)
    #expect(
      requests == [
        .init(cachedTokenCount: 0, processedTokenCount: 21),
        .init(cachedTokenCount: 20, processedTokenCount: 1),
      ])
    #expect(requests.map(\.promptTokenCount) == [21, 21])
  }

  @Test func `a generate line that does not read is located`() {
    #expect(throws: LlamaCppPythonLog.FormatError.self) {
      try LlamaCppPythonLog.requests(in: "ok\nLlama.generate: something else\n")
    }
  }
}
