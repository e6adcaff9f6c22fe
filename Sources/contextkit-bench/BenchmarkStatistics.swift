/// Summary statistics of a set of timings, in seconds per operation.
struct BenchmarkStatistics: Codable {
  /// The median.
  var median: Double
  /// The fastest run.
  var minimum: Double
  /// The slowest run.
  var maximum: Double
  /// The distance between the first and third quartiles.
  var interquartileRange: Double

  init(samples: [Double]) {
    let sorted = samples.sorted()
    median = Self.quantile(0.5, of: sorted)
    minimum = sorted.first ?? 0
    maximum = sorted.last ?? 0
    interquartileRange = Self.quantile(0.75, of: sorted) - Self.quantile(0.25, of: sorted)
  }

  /// The `q` quantile of sorted values, interpolating linearly between neighbours.
  static func quantile(_ q: Double, of sorted: [Double]) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let position = q * Double(sorted.count - 1)
    let lower = Int(position.rounded(.down))
    let upper = min(lower + 1, sorted.count - 1)
    let weight = position - Double(lower)
    return sorted[lower] * (1 - weight) + sorted[upper] * weight
  }
}
