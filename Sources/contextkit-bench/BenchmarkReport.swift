import Foundation

/// The measurements of one case (and of its baseline).
struct BenchmarkResult: Codable {
  /// The baseline's measurements.
  struct Baseline: Codable {
    var name: String
    var iterationsPerRun: Int
    var seconds: BenchmarkStatistics
  }

  var name: String
  var runs: Int
  var iterationsPerRun: Int
  /// Seconds per operation.
  var seconds: BenchmarkStatistics
  var baseline: Baseline?
  /// The case's median over the baseline's median: below 1 means faster.
  var ratioToBaseline: Double?
  /// What one operation is made of, when the case says.
  var unit: BenchmarkUnit?
  /// The median time per unit.
  var medianSecondsPerUnit: Double?
  /// What the case measured besides time, such as memory.
  var note: String?
  /// The memory the case measured, when it did.
  var memory: BenchmarkMemory?
  /// CPU seconds the process used per operation (all threads), over the same runs.
  var cpuSeconds: BenchmarkStatistics?
  /// The median CPU time per unit.
  var medianCPUSecondsPerUnit: Double?
}

/// Prints results as a table for people or as JSON for tools.
enum BenchmarkReport {
  /// One line per case: median, spread, and the ratio to the baseline.
  static func tableLine(for result: BenchmarkResult) -> String {
    var line = "\(pad(result.name, 28)) median \(format(result.seconds.median))"
    line += "  [min \(format(result.seconds.minimum)), max \(format(result.seconds.maximum))"
    line += ", IQR \(format(result.seconds.interquartileRange))]"
    if let unit = result.unit, let perUnit = result.medianSecondsPerUnit {
      line += "  = \(format(perUnit).trimmingCharacters(in: .whitespaces)) per \(unit.name)"
      if perUnit > 0 {
        line += " (\(String(format: "%.1f", 1 / perUnit)) \(unit.name)/s)"
      }
      if let cpuPerUnit = result.medianCPUSecondsPerUnit {
        line += ", CPU \(format(cpuPerUnit).trimmingCharacters(in: .whitespaces)) per \(unit.name)"
      }
    }
    if let baseline = result.baseline, let ratio = result.ratioToBaseline {
      line += "\n\(pad("  vs " + baseline.name, 28)) median \(format(baseline.seconds.median))"
      line += "  [min \(format(baseline.seconds.minimum)), max \(format(baseline.seconds.maximum))"
      line += ", IQR \(format(baseline.seconds.interquartileRange))]"
      line += "  ratio \(String(format: "%.2f", ratio))x"
      line += ratio < 1 ? " (faster)" : " (slower)"
    }
    if let note = result.note { line += "\n  \(note)" }
    return line
  }

  /// The results as a JSON array, one object per case.
  static func json(for results: [BenchmarkResult]) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(results), as: UTF8.self)
  }

  /// A duration in the most readable unit: `812 ns`, `12.3 µs`, `4.56 ms`, `1.23 s`.
  static func format(_ seconds: Double) -> String {
    let text: String
    switch seconds {
    case ..<1e-6: text = String(format: "%.0f ns", seconds * 1e9)
    case ..<1e-3: text = String(format: "%.2f µs", seconds * 1e6)
    case ..<1: text = String(format: "%.2f ms", seconds * 1e3)
    default: text = String(format: "%.3f s", seconds)
    }
    return String(repeating: " ", count: max(0, 9 - text.count)) + text
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }
}
