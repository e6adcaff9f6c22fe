import Foundation
import TestSupport
import Testing

@testable import ContextKitDemo

@Suite("llama-cpp-python log", .timeLimit(.minutes(10))) struct LlamaCppPythonLogTests {
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
      INFO:     127.0.0.1:42710 - "POST /v1/chat/completions HTTP/1.1" 200 OK
      llama_perf_context_print: prompt eval time =     100.00 ms /    12 tokens (    8.33 ms per token,   120.00 tokens per second)
      llama_perf_context_print:       total time =     120.00 ms /    14 tokens
      Llama.generate: 30 prefix-match hit, remaining 4 prompt tokens to eval
      """
    let requests = try LlamaCppPythonLog.requests(in: text)
    #expect(
      requests == [
        .init(cachedTokenCount: 0, processedTokenCount: 21),
        .init(cachedTokenCount: 20, processedTokenCount: 1),
        // No prefix match: nothing cached, whatever the request before reused.
        .init(cachedTokenCount: 0, processedTokenCount: 12),
      ])
    #expect(requests.map(\.promptTokenCount) == [21, 21, 12])
  }

  @Test func `an excerpt ends after its last complete request and counts the requests answered`() throws {
    let first = """
      INFO:     127.0.0.1:1 - "POST /extras/tokenize HTTP/1.1" 200 OK
      INFO:     127.0.0.1:2 - "POST /v1/chat/completions HTTP/1.1" 200 OK
      Llama.generate: 7 prefix-match hit, remaining 3 prompt tokens to eval
      llama_perf_context_print:       total time =      39.99 ms /     6 tokens

      """
    // A second client's streamed request: answered, its figures not written yet.
    let rest = """
      INFO:     127.0.0.1:3 - "POST /v1/chat/completions HTTP/1.1" 200 OK
      Llama.generate: 2 prefix-match hit, remaining 9 prompt tokens to eval

      """
    let excerpt = try LlamaCppPythonLog.excerpt(in: "\0\0" + first + rest)
    #expect(excerpt.requests == [.init(cachedTokenCount: 7, processedTokenCount: 3)])
    #expect(excerpt.generationRequestCount == 1)
    #expect(excerpt.pendingGenerationRequestCount == 1)
    #expect(excerpt.endOffset == UInt64(2 + first.utf8.count))
    let empty = try LlamaCppPythonLog.excerpt(in: rest)
    #expect(empty.requests.isEmpty)
    #expect(empty.endOffset == 0)
    #expect(empty.pendingGenerationRequestCount == 1)
  }

  @Test func `a generate line that does not read is located`() {
    #expect(throws: LlamaCppPythonLog.FormatError.self) {
      try LlamaCppPythonLog.requests(in: "ok\nLlama.generate: something else\n")
    }
  }

  @Test func `the error names the file and the line, counted from 1`() {
    do {
      _ = try LlamaCppPythonLog.requests(in: "ok\nLlama.generate: something else\n", path: "server.log")
      Issue.record("the generate line was read")
    } catch {
      #expect(
        error.description
          == "server.log: line 2 of the new log text: unexpected generate line: Llama.generate: something else"
      )
    }
  }

  @Test func `counts at the boundaries read or are a located error, and a request's total never traps`()
    throws
  {
    for (value, accepted) in [
      ("0", 0), ("9007199254740992", 9_007_199_254_740_992), ("9007199254740993", nil),
      ("9223372036854775807", nil), ("9223372036854775808", nil), ("99999999999999999999999", nil),
    ] as [(String, Int?)] {
      for line in [
        "Llama.generate: \(value) prefix-match hit, remaining \(value) prompt tokens to eval",
        "llama_perf_context_print: prompt eval time =       1.00 ms / \(value) tokens (1.0 ms per token)",
      ] {
        let text = "\(line)\nllama_perf_context_print:       total time =      39.99 ms /     6 tokens\n"
        do {
          let requests = try LlamaCppPythonLog.requests(in: text, path: "server.log")
          let accepted = try #require(accepted, "\(line) was read: \(requests)")
          #expect(requests.first?.processedTokenCount == accepted)
          #expect(
            requests.first.map(\.promptTokenCount) == (line.hasPrefix("Llama") ? 2 * accepted : accepted))
        } catch {
          #expect(accepted == nil, "\(line): \(error)")
          #expect(
            "\(error)".hasPrefix(
              "server.log: line 1 of the new log text: \(value) is not a whole number from 0 to 9007199254740992 in: "
            ),
            "\(error)")
        }
      }
    }
  }

  @Test func `a log grown by a hole of NUL bytes is read in a bounded piece and refused`() throws {
    let folder = try TemporaryFolder(named: "ck-log")
    defer { folder.remove() }
    let url = folder.url("server.log")
    let request = """
      INFO:     127.0.0.1:2 - "POST /v1/chat/completions HTTP/1.1" 200 OK
      Llama.generate: 7 prefix-match hit, remaining 3 prompt tokens to eval
      llama_perf_context_print:       total time =      39.99 ms /     6 tokens

      """
    try Data(request.utf8).write(to: url)
    // A sparse hole of 4 GiB after the request: reading it whole took 3 GB and 14 s.
    let handle = try FileHandle(forWritingTo: url)
    try handle.truncate(atOffset: UInt64(request.utf8.count) + (4 << 30))
    try handle.close()
    let log = LlamaCppPythonLog(url: url)
    let excerpt = try log.excerpt(since: 0)
    #expect(excerpt.requests == [.init(cachedTokenCount: 7, processedTokenCount: 3)])
    #expect(excerpt.endOffset == UInt64(request.utf8.count))
    #expect {
      try log.excerpt(since: excerpt.endOffset)
    } throws: { error in
      (error as? LlamaCppPythonLog.FormatError)?.description
        == "\(url.path): line 1 of the new log text: 16777216 bytes after byte \(request.utf8.count) hold no "
        + "complete request (a llama-cpp-python log has a few hundred bytes per request; is there a hole of NUL "
        + "bytes, or another program's output?)"
    }
  }
}
