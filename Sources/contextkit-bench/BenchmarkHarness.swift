import Foundation

/// Runs benchmark cases: calibrates how often an operation repeats per run,
/// warms up, then alternates measured runs of the case and of its baseline so
/// that both see the same machine load.
struct BenchmarkHarness {
  let options: BenchmarkOptions
  private let clock = ContinuousClock()
  /// Folds the operations' results so the optimizer keeps the work.
  private(set) var checksum = 0

  init(options: BenchmarkOptions) {
    self.options = options
  }

  /// Measures one case and its baseline.
  mutating func measure(_ benchmark: BenchmarkCase) throws -> BenchmarkResult {
    let iterations = try calibrate(benchmark.operation)
    let baselineIterations = try benchmark.baseline.map { try calibrate($0) }
    for _ in 0..<options.warmUpRuns {
      _ = try time(benchmark.operation, iterations: iterations)
      if let baseline = benchmark.baseline, let baselineIterations {
        _ = try time(baseline, iterations: baselineIterations)
      }
    }
    var samples: [Double] = []
    var cpuSamples: [Double] = []
    var baselineSamples: [Double] = []
    for _ in 0..<options.runs {
      let cpuStart = Self.processCPUSeconds()
      samples.append(try time(benchmark.operation, iterations: iterations))
      cpuSamples.append((Self.processCPUSeconds() - cpuStart) / Double(iterations))
      if let baseline = benchmark.baseline, let baselineIterations {
        baselineSamples.append(try time(baseline, iterations: baselineIterations))
      }
    }
    let statistics = BenchmarkStatistics(samples: samples)
    var result = BenchmarkResult(
      name: benchmark.name, runs: options.runs, iterationsPerRun: iterations, seconds: statistics)
    result.note = benchmark.note
    result.memory = benchmark.memory
    result.cpuSeconds = BenchmarkStatistics(samples: cpuSamples)
    if let unit = benchmark.unit, unit.countPerOperation > 0 {
      result.unit = unit
      result.medianSecondsPerUnit = statistics.median / Double(unit.countPerOperation)
      result.medianCPUSecondsPerUnit =
        BenchmarkStatistics(samples: cpuSamples).median / Double(unit.countPerOperation)
    }
    if let baseline = benchmark.baseline, let baselineIterations {
      let baselineStatistics = BenchmarkStatistics(samples: baselineSamples)
      result.baseline = BenchmarkResult.Baseline(
        name: baseline.name, iterationsPerRun: baselineIterations, seconds: baselineStatistics)
      result.ratioToBaseline = statistics.median / baselineStatistics.median
    }
    return result
  }

  /// The CPU time the whole process has used (every thread, user and system), in
  /// seconds: unlike the wall clock, it does not count the time other processes on a
  /// shared machine hold the cores.
  static func processCPUSeconds() -> Double {
    var time = timespec()
    guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }

  /// How many times to repeat the operation so that one run lasts at least
  /// the minimum run time.
  private mutating func calibrate(_ operation: BenchmarkCase.Operation) throws -> Int {
    var iterations = 1
    while true {
      let seconds = try time(operation, iterations: iterations) * Double(iterations)
      if seconds >= options.minimumRunSeconds || iterations >= 1 << 20 { return iterations }
      let factor = seconds > 0 ? options.minimumRunSeconds / seconds * 1.2 : 10
      iterations = max(iterations + 1, Int((Double(iterations) * min(factor, 100)).rounded(.up)))
    }
  }

  /// Seconds per operation, over one run of `iterations` operations.
  private mutating func time(_ operation: BenchmarkCase.Operation, iterations: Int) throws -> Double {
    var folded = 0
    let start = clock.now
    for _ in 0..<iterations {
      folded &+= try operation.run()
    }
    let elapsed = clock.now - start
    checksum ^= folded
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    return seconds / Double(iterations)
  }
}
