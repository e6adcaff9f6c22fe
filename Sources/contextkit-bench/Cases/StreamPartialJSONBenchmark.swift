import ModelSession

/// What streaming costs: a response arriving in 16-byte deltas, with the
/// whole text so far parsed by `GeneratedContent(partialJSON:)` after each
/// delta, against one strict parse of the finished document.
enum StreamPartialJSONBenchmark {
  static let deltaBytes = 16

  static func make(size: BenchmarkJSONDocument.Size) throws -> BenchmarkCase {
    let bytes = Array(BenchmarkJSONDocument.text(size: size).utf8)
    // Prefixes end on character boundaries, as streamed text does.
    let prefixes = stride(from: deltaBytes, through: bytes.count + deltaBytes - 1, by: deltaBytes)
      .map { min($0, bytes.count) }
      .map { end in
        var end = end
        while end < bytes.count, bytes[end] & 0b1100_0000 == 0b1000_0000 { end += 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
      }
    let whole = String(decoding: bytes, as: UTF8.self)
    return BenchmarkCase(
      name: "json/stream-partial/\(size.label)",
      run: {
        var completeCount = 0
        for prefix in prefixes where try GeneratedContent(partialJSON: prefix).isComplete {
          completeCount += 1
        }
        return completeCount
      },
      baseline: .init(name: "one strict parse") { try GeneratedContent(json: whole).orderedKeys.count })
  }
}
