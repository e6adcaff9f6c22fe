import Foundation

do {
  let options = try BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()))
  if options.printsHelp {
    print(BenchmarkOptions.usage)
    exit(0)
  }
  if options.comparesStrategies {
    try StrategyBenchmark.report(seed: options.seed, json: options.printsJSON, html: options.htmlPath)
    exit(0)
  }
  let selected = BenchmarkCatalog.registrations.filter { options.filter.map($0.name.contains) ?? true }
  if options.listsCases {
    selected.forEach { print($0.name) }
    exit(0)
  }
  var harness = BenchmarkHarness(options: options)
  var results: [BenchmarkResult] = []
  for registration in selected {
    var benchmark = try registration.makeCase()
    if options.skipsBaselines { benchmark.baseline = nil }
    let result = try harness.measure(benchmark)
    results.append(result)
    if !options.printsJSON { print(BenchmarkReport.tableLine(for: result)) }
  }
  if options.printsJSON { print(try BenchmarkReport.json(for: results)) }
} catch let error as BenchmarkOptionsError {
  FileHandle.standardError.write(Data("error: \(error)\n\n\(BenchmarkOptions.usage)\n".utf8))
  exit(2)
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
