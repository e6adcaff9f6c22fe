import ModelSession

/// A response arriving in 16-byte deltas, with the value so far read after
/// each delta: `StreamingJSONParser` (which reads only the new text) against
/// parsing the whole text so far with `GeneratedContent(partialJSON:)`.
enum StreamPartialJSONBenchmark {
  static let deltaBytes = 16

  static func make(size: BenchmarkJSONDocument.Size) throws -> BenchmarkCase {
    let bytes = Array(BenchmarkJSONDocument.text(size: size).utf8)
    // Deltas end on character boundaries, as streamed text does.
    var deltas: [String] = []
    var start = 0
    while start < bytes.count {
      var end = min(start + deltaBytes, bytes.count)
      while end < bytes.count, bytes[end] & 0b1100_0000 == 0b1000_0000 { end += 1 }
      deltas.append(String(decoding: bytes[start..<end], as: UTF8.self))
      start = end
    }
    let prefixes = deltas.indices.map { deltas[...$0].joined() }
    return BenchmarkCase(
      name: "json/stream-partial/\(size.label)",
      run: {
        var parser = StreamingJSONParser()
        var completeCount = 0
        for delta in deltas where try parser.append(delta).isComplete {
          completeCount += 1
        }
        return completeCount
      },
      baseline: .init(name: "partialJSON on every prefix") {
        var completeCount = 0
        for prefix in prefixes where try GeneratedContent(partialJSON: prefix).isComplete {
          completeCount += 1
        }
        return completeCount
      })
  }
}
