import CacheAnalysis
import CacheReport
import ContextKit
import ContextKitDemo
import Foundation

/// `contextkit check-cache`: ContextKit's predicted prefix reuse against a
/// live server's own figures, generation by generation.
struct CheckCacheCommand: Command {
  let name = "check-cache"
  let summary = "compare predicted prompt-cache reuse with what a live server reports, per generation"
  let usage = """
    usage: contextkit check-cache --endpoint URL --model NAME [--server-log FILE] [--json] [--html PATH]
                                  [--llama-cpp-python] [--prompts N] [--budget N] [--answer-tokens N]
                                  [--skills FOLDER]

      Plays the coding-agent scenario's prompts against a live OpenAI-compatible server under
      compactingHistory with the skills of SkillsLibrary/ (the instructions skill
      writing-commit-messages switched on before turn 10 and off before turn 25), and compares
      for every generation the prefix reuse ContextKit predicts (token by token, counted with
      the server's tokenizer when it has one) with the cached tokens the server reports: in
      its usage (prompt_tokens_details.cached_tokens, DeepSeek's prompt_cache_hit_tokens,
      llama.cpp's timings.cache_n; docs/cache.md) or, with --server-log, in llama-cpp-python's
      log. Prints a row per generation: both prompt sizes and reuses, their difference, why
      they differ, and what invalidated the prefix; then the totals.

      --endpoint URL     the server's OpenAI-compatible base URL, such as http://127.0.0.1:8080/v1
      --model NAME       the model to ask the server for
      --server-log FILE  llama-cpp-python's log (its verbose prefix-match lines), for that server
      --llama-cpp-python llama-cpp-python's request style (json_object, max_tokens)
      --prompts N        how many of the scenario's 40 prompts to play (default 40)
      --budget N         the history budget in tokens (default 2000)
      --answer-tokens N  the longest answer (default 48)
      --skills FOLDER    the skills library (default ./SkillsLibrary)
      --json             {"endpoint", "model", "reports", "summary", "notCompared", "unexplained"}
                         as JSON instead of the table (docs/cli.md)
      --html PATH        also write a page with the chart and the table

      A generation the server reported nothing for is "server did not say" (unknown, not a miss).
      Exit status: 0 success (whatever the difference), 1 the run failed (server, files),
      2 wrong usage.
    """

  /// The options, checked.
  struct Options: Equatable {
    var endpoint: URL
    var model: String
    var serverLog: String?
    var llamaCppPython = false
    var prompts = 40
    var budget = 2_000
    var answerTokens = 48
    var skills: String?
    var json = false
    var html: String?

    /// Reads and checks the options; a usage error names the option.
    init(_ arguments: inout CommandLineArguments) throws(CommandLineArguments.UsageError) {
      let endpoint = try arguments.option("--endpoint")
      let model = try arguments.option("--model")
      serverLog = try arguments.option("--server-log")
      llamaCppPython = arguments.flag("--llama-cpp-python")
      prompts = try arguments.integerOption("--prompts") ?? 40
      budget = try arguments.integerOption("--budget") ?? 2_000
      answerTokens = try arguments.integerOption("--answer-tokens") ?? 48
      skills = try arguments.option("--skills")
      json = arguments.flag("--json")
      html = try arguments.option("--html")
      try arguments.finish()
      guard let endpoint else {
        throw CommandLineArguments.UsageError(description: "check-cache needs --endpoint URL")
      }
      guard let model, !model.isEmpty else {
        throw CommandLineArguments.UsageError(description: "check-cache needs --model NAME")
      }
      self.endpoint = try EndpointOption.url(endpoint)
      self.model = model
      guard (1...40).contains(prompts) else {
        throw CommandLineArguments.UsageError(description: "--prompts takes 1 to 40, not \(prompts)")
      }
      for (name, value) in [("--budget", budget), ("--answer-tokens", answerTokens)] where value < 1 {
        throw CommandLineArguments.UsageError(description: "\(name) takes 1 or more tokens, not \(value)")
      }
    }
  }

  /// `--json`.
  struct Output: Encodable {
    var endpoint: String
    var model: String
    var reports: [CacheImpactReport]
    var summary: CacheImpactSummary
    /// Generations left out of the comparison: another client's request ran on the server.
    var notCompared: [Int]
    /// Generations that differ beyond the tolerance for no cause the check can name.
    var unexplained: [Int]
    var html: String?
  }

  func run(_ arguments: inout CommandLineArguments, console: Console) async throws -> ExitCode {
    let options = try Options(&arguments)
    if let serverLog = options.serverLog { try DemoCommand.checkServerLog(serverLog) }
    guard let scenario = DemoScenarios.all().first(where: { $0.turns.count >= 40 }) else {
      throw LiveDemo.MissingScenario()
    }
    let library = try SkillsLibrary(root: try DemoCommand.skillsRoot(options.skills))
    let shown = EndpointOption.shown(options.endpoint)
    let print = options.json ? console.printDiagnostic : console.print
    print(
      "check-cache: \(options.prompts) prompts of \(scenario.name) against \(shown) (\(options.model)), "
        + "budget \(options.budget) tokens, answers of at most \(options.answerTokens) tokens")
    let result = try await CacheCheckRun(
      endpoint: options.endpoint, model: options.model, budget: options.budget,
      maximumResponseTokens: options.answerTokens,
      requestStyle: options.llamaCppPython ? .llamaCppPython : .openAI,
      serverLog: options.serverLog.map { URL(fileURLWithPath: $0) }, skills: library.skills
    ).run(instructions: scenario.instructions, prompts: scenario.turns.prefix(options.prompts).map(\.prompt))
    if let html = options.html {
      var page = CacheReportPage(title: "Prompt-cache check of \(options.model) at \(shown)")
      page.append(
        .paragraph(
          "Predicted prefix reuse (token by token, counted with the server's tokenizer when it has one) "
            + "against the cached tokens the server reported, per generation."))
      page.append(
        .table(
          headings: LiveCacheCheck.Result.headings, rows: result.rows + [result.totalsRow],
          numeric: LiveCacheCheck.Result.numericColumns))
      if !result.granularityRows.isEmpty {
        page.append(.paragraph("Where the prompt changed a block: reuse by whole blocks and token by token."))
        page.append(
          .table(
            headings: LiveCacheCheck.Result.granularityHeadings, rows: result.granularityRows,
            numeric: [0, 3, 4, 5, 6, 7, 8, 9]))
      }
      page.appendAnalysis(of: result.reports, title: "\(options.model) at \(shown)", budget: options.budget)
      try ReportFile.write(page.html, to: html)
    }
    if options.json {
      console.print(
        try JSONOutput.string(
          Output(
            endpoint: shown, model: options.model, reports: result.reports, summary: result.summary,
            notCompared: result.interleavedGenerations.sorted(), unexplained: result.unexplainedGenerations,
            html: options.html)))
    } else {
      console.print(result.table)
      console.print(result.summary.description)
      let granularity = result.granularityTable
      if !granularity.isEmpty {
        console.print("\nwhere the prompt changed a block: reuse by whole blocks and token by token")
        console.print(granularity)
      }
      if let html = options.html { console.print("\nwrote \(html)") }
    }
    return .success
  }
}
