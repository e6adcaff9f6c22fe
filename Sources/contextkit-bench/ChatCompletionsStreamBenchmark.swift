import ChatCompletions
import Foundation

/// Throughput of SSE parsing and of chunk decoding on a synthetic 10 MB
/// stream shaped like llama-cpp-python's (one token per event).
enum ChatCompletionsStreamBenchmark {
  static func run(megabytes: Int = 10, readSize: Int = 16 * 1024) async throws {
    let stream = makeStream(bytes: megabytes * 1_000_000)
    let reads = stride(from: 0, to: stream.count, by: readSize).map {
      stream.subdata(in: $0..<min($0 + readSize, stream.count))
    }
    let megabytesParsed = Double(stream.count) / 1_000_000

    let clock = ContinuousClock()
    var events = 0
    let parseTime = try clock.measure {
      var parser = ServerSentEventParser()
      for read in reads {
        events += try parser.parse(read).count
      }
      parser.finish()
    }

    var chunks = 0
    var characters = 0
    let body = AsyncThrowingStream<Data, any Error> { continuation in
      for read in reads {
        continuation.yield(read)
      }
      continuation.finish()
    }
    let decodeStart = clock.now
    for try await chunk in ChatCompletionChunkStream(body: body) {
      chunks += 1
      characters += chunk.choices.first?.delta.content?.count ?? 0
    }
    let decodeTime = clock.now - decodeStart

    print("chat completions stream, \(String(format: "%.1f", megabytesParsed)) MB, \(events) events:")
    report("SSE parsing", megabytes: megabytesParsed, events: events, time: parseTime)
    report("SSE parsing + chunk decoding", megabytes: megabytesParsed, events: chunks, time: decodeTime)
    if characters == 0 {
      print("  (no content decoded: the benchmark stream is wrong)")
    }
  }

  private static func report(_ name: String, megabytes: Double, events: Int, time: Duration) {
    let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
    print(
      "  \(name): \(String(format: "%.1f", megabytes / seconds)) MB/s, "
        + "\(String(format: "%.0f", Double(events) / seconds)) events/s")
  }

  static func makeStream(bytes: Int) -> Data {
    var data = Data()
    data.reserveCapacity(bytes + 512)
    let words = [
      "The", " lighthouse", " keeper", " counted", " ships", ",", " naïvely", " 👋", " and", " slept", ".",
    ]
    var index = 0
    while data.count < bytes {
      let word = words[index % words.count]
      let event =
        #"data: {"id": "chatcmpl-bench", "model": "smollm2", "created": 1795972925, "#
        + #""object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": "\#(word)"}, "#
        + #""logprobs": null, "finish_reason": null}]}"# + "\r\n\r\n"
      data.append(contentsOf: Array(event.utf8))
      index += 1
    }
    let end =
      #"data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}"# + "\n\ndata: [DONE]\n\n"
    data.append(contentsOf: Array(end.utf8))
    return data
  }
}
