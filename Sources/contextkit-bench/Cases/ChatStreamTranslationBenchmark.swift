import ChatCompletions
import Foundation
import ModelSession

/// SSE parsing, chunk decoding and event translation of a 10 MB stream shaped
/// like llama-cpp-python's (one token per event), read in 16 KB pieces: the
/// whole path from bytes to channel events, as the executor runs it.
enum ChatStreamTranslationBenchmark {
  /// The measured unit: megabytes of stream, or translated events.
  enum Measure {
    case megabytes
    case events
  }

  static func make(megabytes: Int = 10, measure: Measure) throws -> BenchmarkCase {
    let stream = ChatCompletionsStreamBenchmark.makeStream(bytes: megabytes * 1_000_000)
    let reads = stride(from: 0, to: stream.count, by: 16 * 1024).map {
      stream.subdata(in: $0..<min($0 + 16 * 1024, stream.count))
    }
    let translate: @Sendable () async throws -> Int = {
      let body = AsyncThrowingStream<Data, any Error> { continuation in
        for read in reads { continuation.yield(read) }
        continuation.finish()
      }
      var translator = EventTranslator()
      var events = 0
      for try await chunk in ChatCompletionChunkStream(body: body) {
        events += try translator.translate(chunk).count
      }
      try translator.finish()
      return events
    }
    let eventCount = try AsyncBenchmarkRunner.run(translate)
    guard eventCount > 0 else {
      throw BenchmarkSetupError(description: "the benchmark stream gave no events")
    }
    let unit: BenchmarkUnit
    let name: String
    switch measure {
    case .megabytes:
      unit = BenchmarkUnit(name: "MB", countPerOperation: megabytes)
      name = "chat/stream-translate/\(megabytes)MB"
    case .events:
      unit = BenchmarkUnit(name: "event", countPerOperation: eventCount)
      name = "chat/stream-translate/events"
    }
    return BenchmarkCase(name: name, run: { try AsyncBenchmarkRunner.run(translate) }, unit: unit)
  }
}
