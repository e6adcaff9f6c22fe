import HistoryCompression

/// Each history modifier, and the three in a chain, per generation on
/// transcripts of growing length, against JSON-encoding the same transcript
/// once (the cost of just looking at it).
enum HistoryBenchmarks {
  static let entryCounts = [100, 1_000, 10_000, 100_000]
  static let stages = [
    "droppingCompletedToolCalls", "rollingWindow", "summarizeHistory", "chain", "tokenCounts/cached",
  ]

  static var registrations: [BenchmarkRegistration] {
    entryCounts.flatMap { count in
      stages.map { stage in
        BenchmarkRegistration(name: "history/\(stage)/\(count)") { try make(stage: stage, entryCount: count) }
      }
    }
  }

  static func make(stage: String, entryCount: Int) throws -> BenchmarkCase {
    let cases = HistoryCompressionBenchmarks.cases(entryCounts: [entryCount])
    guard let measured = cases.first(where: { $0.name == "\(stage)/\(entryCount)" }),
      let encode = cases.first(where: { $0.name == "jsonEncode/\(entryCount)" })
    else {
      throw BenchmarkSetupError(description: "no history case \(stage)/\(entryCount)")
    }
    _ = try AsyncBenchmarkRunner.run {
      try await measured.prepare()
      return 0
    }
    return BenchmarkCase(
      name: "history/\(stage)/\(entryCount)",
      run: {
        try AsyncBenchmarkRunner.run {
          try await measured.run()
          return entryCount
        }
      },
      baseline: BenchmarkCase.Operation(
        name: "JSON-encode the transcript",
        run: {
          try AsyncBenchmarkRunner.run {
            try await encode.run()
            return entryCount
          }
        }), unit: BenchmarkUnit(name: "entry", countPerOperation: entryCount))
  }
}

/// A case that could not be set up.
struct BenchmarkSetupError: Error, CustomStringConvertible {
  var description: String
}
