import Testing

@testable import contextkit_bench

@Suite("Benchmark statistics and report", .timeLimit(.minutes(10))) struct BenchmarkReportTests {
  @Test func `the median of an even count is the mean of the middle two, the IQR interpolates`() {
    // Sorted 1 2 3 4: the median halfway between 2 and 3; quartiles at 1.75 and 3.25.
    let even = BenchmarkStatistics(samples: [4, 1, 3, 2])
    #expect(even.median == 2.5)
    #expect(even.minimum == 1)
    #expect(even.maximum == 4)
    #expect(even.interquartileRange == 1.5)
    // Sorted 1 3 5: quartiles at 2 and 4.
    let odd = BenchmarkStatistics(samples: [5, 1, 3])
    #expect(odd.median == 3)
    #expect(odd.interquartileRange == 2)
    let none = BenchmarkStatistics(samples: [])
    #expect(none.median == 0 && none.minimum == 0 && none.maximum == 0)
  }

  @Test func `durations in the most readable unit, right-aligned in nine characters`() {
    #expect(BenchmarkReport.format(8.12e-7) == "   812 ns")
    #expect(BenchmarkReport.format(1.23e-5) == " 12.30 µs")
    #expect(BenchmarkReport.format(0.00456) == "  4.56 ms")
    #expect(BenchmarkReport.format(0.001) == "  1.00 ms")
    #expect(BenchmarkReport.format(1.5) == "  1.500 s")
    #expect(BenchmarkReport.format(0) == "     0 ns")
  }

  @Test func `a case's line: median, spread, and the ratio to its baseline, faster below 1`() {
    // 1, 2 and 3 ms: median 2 ms, IQR 2.5 - 1.5 = 1 ms. The baseline takes 4 ms every run.
    let baseline = BenchmarkResult.Baseline(
      name: "base", iterationsPerRun: 1, seconds: BenchmarkStatistics(samples: [0.004, 0.004, 0.004]))
    let result = BenchmarkResult(
      name: "case", runs: 3, iterationsPerRun: 1,
      seconds: BenchmarkStatistics(samples: [0.003, 0.001, 0.002]), baseline: baseline, ratioToBaseline: 0.5)
    #expect(
      BenchmarkReport.tableLine(for: result)
        == "case                         median   2.00 ms  [min   1.00 ms, max   3.00 ms, IQR   1.00 ms]\n"
        + "  vs base                    median   4.00 ms  [min   4.00 ms, max   4.00 ms, IQR      0 ns]"
        + "  ratio 0.50x (faster)")
    var slower = result
    slower.ratioToBaseline = 2
    #expect(BenchmarkReport.tableLine(for: slower).hasSuffix("  ratio 2.00x (slower)"))
  }

  @Test func `a case with units: the time per unit, the units per second, and the CPU time per unit`() {
    // 250 ns per event is 1 / 2.5e-7 = 4,000,000 events a second.
    var result = BenchmarkResult(
      name: "case", runs: 3, iterationsPerRun: 1,
      seconds: BenchmarkStatistics(samples: [0.003, 0.001, 0.002]))
    result.unit = BenchmarkUnit(name: "event", countPerOperation: 8_000)
    result.medianSecondsPerUnit = 2.5e-7
    result.medianCPUSecondsPerUnit = 5e-7
    #expect(
      BenchmarkReport.tableLine(for: result)
        == "case                         median   2.00 ms  [min   1.00 ms, max   3.00 ms, IQR   1.00 ms]"
        + "  = 250 ns per event (4000000.0 event/s), CPU 500 ns per event")
  }

  @Test func `options: the documented defaults, zero warm-up runs allowed, zero runs refused`() throws {
    let defaults = try BenchmarkOptions(arguments: [])
    #expect(defaults.runs == 10)
    #expect(defaults.warmUpRuns == 2)
    #expect(defaults.minimumRunSeconds == 0.02)
    #expect(defaults.seed == 2026)
    #expect(BenchmarkOptions.usage.contains("measured runs per case (default 10)"))
    #expect(BenchmarkOptions.usage.contains("unmeasured runs first (default 2)"))
    let options = try BenchmarkOptions(
      arguments: ["--warm-up", "0", "--runs", "3", "--seed", "7", "--filter", "skills", "--json"])
    #expect(options.warmUpRuns == 0)
    #expect(options.runs == 3)
    #expect(options.seed == 7)
    #expect(options.filter == "skills")
    #expect(options.printsJSON)
    #expect(throws: BenchmarkOptionsError.self) { try BenchmarkOptions(arguments: ["--runs", "0"]) }
    do {
      _ = try BenchmarkOptions(arguments: ["--warm-up", "-1"])
      Issue.record("a negative warm-up was accepted")
    } catch {
      #expect(error.description == "--warm-up needs a non-negative integer")
    }
  }
}
