import ContextKitDemo
import Foundation

// Stream throughput and end-to-end cases that print their own report (see scripts/bench-chat-stream).
let rawArguments = Array(CommandLine.arguments.dropFirst())
if let flag = rawArguments.firstIndex(of: "--chat-stream-url"), rawArguments.indices.contains(flag + 1),
  let url = URL(string: rawArguments[flag + 1])
{
  try await ChatCompletionsEndToEndBenchmark.run(baseURL: url)
  exit(0)
}
if let flag = rawArguments.firstIndex(of: "--transport-url"), rawArguments.indices.contains(flag + 1),
  let url = URL(string: rawArguments[flag + 1])
{
  let megabytes = rawArguments.firstIndex(of: "--slow-consumer-megabytes").flatMap {
    rawArguments.indices.contains($0 + 1) ? Int(rawArguments[$0 + 1]) : nil
  }
  try await TransportBenchmark.run(serverURL: url, slowConsumerMegabytes: megabytes ?? 200)
  exit(0)
}
if rawArguments.contains("--chat-stream") {
  try await ChatCompletionsStreamBenchmark.run()
  exit(0)
}

do {
  let options = try BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()))
  if options.printsHelp {
    print(BenchmarkOptions.usage)
    exit(0)
  }
  if options.comparesStrategies {
    try StrategyBenchmark.report(
      seed: options.seed,
      strategies: CompressionStrategy.allCases.filter { options.filter.map($0.rawValue.contains) ?? true },
      json: options.printsJSON, html: options.htmlPath)
    exit(0)
  }
  let registrations = BenchmarkCatalog.registrations
  // A filter that names a case exactly selects that case alone (skills/load/1000, not also .../10000).
  let exact = registrations.filter { $0.name == options.filter }
  let selected = exact.isEmpty ? registrations.filter { options.filter.map($0.name.contains) ?? true } : exact
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
