import CacheReport
import ContextKit
import ContextKitDemo
import Foundation
import HTTPStreaming
import ModelSession

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `contextkit demo`: the bundled scenarios under every history strategy, offline.
struct DemoCommand: Command {
  let name = "demo"
  let summary = "replay the bundled scenarios under each history strategy and compare prompt-cache reuse"
  let usage = """
    usage: contextkit demo [--json] [--html PATH] [--records FOLDER] [--skills FOLDER] [--count-half]
           contextkit demo [--json] [--count-half] --endpoint URL --model NAME

      Replays three bundled conversations (a coding agent, a support chat, a research
      assistant with a 4,096-token budget) through a real LanguageModelSession with the skills
      of SkillsLibrary/ and a replay model of recorded answers, once under each history
      strategy: no compression, the companion package's rolling window and summarizer
      (baselines), and ContextKit's rollingWindow, summarizeHistory and compactingHistory.
      Prints the comparison table and writes an HTML report. Runs offline.

      --html PATH       where to write the report (default reports/demo.html)
      --records FOLDER  also save each run's generation records there, one file per run
                        (GenerationRecordArchive: each entry once), for 'contextkit analyze'
      --skills FOLDER   the skills library (default ./SkillsLibrary); the diagnostics of skills
                        that do not load go to standard error
      --json            the comparison as JSON instead of the tables (docs/cli.md)
      --count-half      show the session's recovery from a context overflow: ContextKit's strategies
                        count half of each token estimate (a tokenizer that disagrees with the
                        model's), so prompts outgrow the model's window (offline: each scenario's
                        budget; with --endpoint: the server's); only the strategies that compact on
                        overflow are played, and each refusal they recover from is listed
      --endpoint URL    run against a live OpenAI-compatible server (needs --model)
      --model NAME      the model to ask the server for
      --budget N        with --endpoint: the history budget in tokens (default 2000)
      --answer-tokens N with --endpoint: the longest answer (default 48)
      --llama-cpp-python  with --endpoint: llama-cpp-python's request style (json_object, max_tokens)
      --cache-check     with --endpoint: instead of the strategies, compare the predicted prefix
                        reuse of every generation (compactingHistory, skills, the server's tokenizer)
                        with what the server reports in its responses or, with --server-log, its log
      --server-log PATH with --cache-check: llama-cpp-python's log (its verbose prefix-match lines)

      Exit status: 0 success, 1 the run failed (server, files), 2 wrong usage.
    """

  /// The options of one `contextkit demo` run.
  private struct Options {
    var html: String
    var recordsFolder: String?
    var skillsFolder: String?
    var endpoint: String?
    var modelName: String?
    var budget: Int
    var answerTokens: Int
    var llamaCppPython: Bool
    var cacheCheck: Bool
    var serverLog: String?
    var json: Bool
    var countsHalf: Bool

    init(_ arguments: inout CommandLineArguments) throws {
      html = try arguments.option("--html") ?? "reports/demo.html"
      recordsFolder = try arguments.option("--records")
      skillsFolder = try arguments.option("--skills")
      endpoint = try arguments.option("--endpoint")
      modelName = try arguments.option("--model")
      budget = try arguments.integerOption("--budget") ?? 2_000
      answerTokens = try arguments.integerOption("--answer-tokens") ?? 48
      llamaCppPython = arguments.flag("--llama-cpp-python")
      cacheCheck = arguments.flag("--cache-check")
      serverLog = try arguments.option("--server-log")
      json = arguments.flag("--json")
      countsHalf = arguments.flag("--count-half")
      try arguments.finish()
      for (name, value) in [("--budget", budget), ("--answer-tokens", answerTokens)] where value < 1 {
        throw CommandLineArguments.UsageError(description: "\(name) takes 1 or more tokens, not \(value)")
      }
    }
  }

  func run(_ arguments: inout CommandLineArguments, console: Console) async throws -> ExitCode {
    let options = try Options(&arguments)
    if options.endpoint != nil || options.modelName != nil {
      return try await runLive(options, console: console)
    }
    let library = try SkillsLibrary(root: try Self.skillsRoot(options.skillsFolder))
    console.printDiagnostics(library.diagnostics.sortedByLocation())
    let demo = try await DemoPipeline.run(
      skills: library.skills,
      strategies: CompressionStrategy.allCases.filter { !options.countsHalf || $0.compactsOnContextOverflow },
      countsHalf: options.countsHalf)
    try ReportFile.write(try demo.page().html, to: options.html)
    if options.json {
      console.print(
        try JSONOutput.string(
          try Output(
            demo, html: options.html, records: options.recordsFolder, library: library,
            countsHalf: options.countsHalf)))
    } else {
      console.print(try demo.text())
      console.print("\nwrote \(options.html)")
    }
    if let recordsFolder = options.recordsFolder {
      try Self.writeRecords(of: demo, to: recordsFolder, json: options.json, console: console)
    }
    return .success
  }

  /// `--endpoint URL --model NAME`: the live demo against a server.
  private func runLive(_ options: Options, console: Console) async throws -> ExitCode {
    guard let endpoint = options.endpoint, let modelName = options.modelName else {
      throw CommandLineArguments.UsageError(description: "--endpoint and --model go together")
    }
    let url = try EndpointOption.url(endpoint)
    if options.countsHalf && options.cacheCheck {
      throw CommandLineArguments.UsageError(description: "--count-half and --cache-check do not go together")
    }
    var live = LiveDemo(
      endpoint: url, model: modelName, budget: options.budget, maximumResponseTokens: options.answerTokens,
      requestStyle: options.llamaCppPython ? .llamaCppPython : .openAI)
    live.checksCache = options.cacheCheck
    live.countsHalf = options.countsHalf
    if let serverLog = options.serverLog { try Self.checkServerLog(serverLog) }
    live.serverLog = options.serverLog.map { URL(fileURLWithPath: $0) }
    if options.cacheCheck {
      live.skills = try SkillsLibrary(root: try Self.skillsRoot(options.skillsFolder)).skills
    }
    return try await live.run(json: options.json, console: console)
  }

  /// `--records FOLDER`: one records file per strategy run, and a line that says how to analyze them.
  private static func writeRecords(
    of demo: DemoResult, to recordsFolder: String, json: Bool, console: Console
  ) throws {
    for run in demo.runs {
      let path = URL(fileURLWithPath: recordsFolder).appendingPathComponent("\(run.name).jsonl").path
      try ReportFile.write(
        String(decoding: try GenerationRecordArchive.encode(run.run.records), as: UTF8.self), to: path)
    }
    let example = demo.runs.first { $0.run.strategy == .compactingHistory } ?? demo.runs.first
    (json ? console.printDiagnostic : console.print)(
      "wrote \(demo.runs.count) record files to \(recordsFolder)/ (try: contextkit analyze "
        + "\(recordsFolder)/\(example?.name ?? "run").jsonl --html report.html, or the whole folder)")
  }

  /// `--json`: every scenario together, then each one with the generations
  /// recovered from a context overflow; the skills used and the diagnostics
  /// of those that did not load; the files written.
  struct Output: Encodable {
    struct Scenario: Encodable {
      var name: String
      var comparison: StrategyComparison
      var recoveries: [RecoveredGeneration]
    }

    var countsHalf: Bool
    var all: StrategyComparison
    var scenarios: [Scenario]
    var skills: [String]
    var diagnostics: [SkillDiagnostic]
    var html: String
    var records: String?

    init(_ demo: DemoResult, html: String, records: String?, library: SkillsLibrary, countsHalf: Bool) throws
    {
      self.countsHalf = countsHalf
      all = try demo.comparison()
      scenarios = try demo.scenarios.map {
        Scenario(
          name: $0.name, comparison: try demo.comparison(for: $0.name),
          recoveries: demo.recoveries(in: $0.name))
      }
      skills = library.names
      diagnostics = library.diagnostics.sortedByLocation()
      self.html = html
      self.records = records
    }
  }

  /// Refuses a `--server-log` that is not a regular file (after links): a
  /// FIFO would block the read until something writes to it, a device would
  /// never end.
  static func checkServerLog(_ path: String) throws(CommandLineArguments.UsageError) {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw CommandLineArguments.UsageError(
        description: "--server-log \(path): \(FileKind.lastError())")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw CommandLineArguments.UsageError(
        description:
          "--server-log \(path) is \(FileKind.name(info.st_mode)), not a regular file (the server's log)")
    }
  }

  /// The skills folder: the one given, or ./SkillsLibrary, or the package's own.
  static func skillsRoot(_ given: String?) throws -> URL {
    if let given {
      guard FileManager.default.fileExists(atPath: given) else {
        throw MissingSkillsFolder(path: given)
      }
      return URL(fileURLWithPath: given, isDirectory: true)
    }
    let local = URL(fileURLWithPath: "SkillsLibrary", isDirectory: true)
    if FileManager.default.fileExists(atPath: local.path) { return local }
    // Run from elsewhere: the library next to the package this binary was built from.
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return package.appendingPathComponent("SkillsLibrary", isDirectory: true)
  }
}

/// The `--skills` folder given to the demo does not exist.
struct MissingSkillsFolder: Error, CustomStringConvertible {
  var path: String
  var description: String { "no such folder: \(path)" }
}
