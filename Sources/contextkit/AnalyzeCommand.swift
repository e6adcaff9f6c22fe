import CacheAnalysis
import CacheReport
import ContextKit
import Foundation

/// `contextkit analyze`: the prompt-cache impact of saved generation records.
struct AnalyzeCommand: Command {
  let name = "analyze"
  let summary = "predict prompt-cache reuse for saved generation records, with causes"
  let usage = """
    usage: contextkit analyze RECORDS [--block-size N] [--json] [--html PATH]

      Reads generation records from a file, or from every file of a folder in name order
      (one conversation per file): the records form 'contextkit demo --records' writes
      (GenerationRecordArchive, JSON Lines; older versions too) or a JSON array (JSONEncoder
      of [GenerationRecord]). A file that does not read is named with its line and byte offset.
      Predicts for every generation how many prompt tokens a server's prefix cache reuses,
      where the prompt diverged from the previous request and why, and prints a table per
      generation and the session's totals.

      --block-size N  the cache's block size in tokens (default 16, as vLLM; 128 as OpenAI; 1 exact)
      --json          {"blockSize", "reports", "summary"} as JSON instead of the table, an array of
                      them (each with its "path") for a folder of several files (docs/cli.md)

      --html PATH     also write a self-contained HTML page with a chart of reused and
                      re-processed tokens per generation and the invalidations marked by cause

      Exit status: 0 success, 1 the records cannot be read or analyzed, 2 wrong usage.
    """

  func run(_ arguments: inout CommandLineArguments, console: Console) async throws -> ExitCode {
    let blockSize = try arguments.integerOption("--block-size") ?? 16
    let json = arguments.flag("--json")
    let html = try arguments.option("--html")
    guard let path = arguments.nextPositional() else {
      throw CommandLineArguments.UsageError(description: "analyze needs a RECORDS file or folder")
    }
    try arguments.finish()
    let model: PromptCacheModel
    do {
      model = try PromptCacheModel(blockSize: blockSize)
    } catch {
      throw CommandLineArguments.UsageError(description: "--block-size: \(error)")
    }
    let conversations = try CacheImpactAnalyzer.conversations(contentsOf: URL(fileURLWithPath: path))
    var analyses: [Analysis] = []
    for conversation in conversations {
      var analysis = try await Analysis(records: conversation.records, model: model)
      analysis.path = conversations.count > 1 ? conversation.path : nil
      analyses.append(analysis)
    }
    if json {
      console.print(try analyses.count == 1 ? JSONOutput.string(analyses[0]) : JSONOutput.string(analyses))
    } else if analyses.count == 1 {
      console.print(analyses[0].text)
    } else {
      console.print(analyses.map { "== \($0.path ?? "")\n\n\($0.text)" }.joined(separator: "\n\n"))
    }
    if let html {
      var page = CacheReportPage(
        title: "Prompt-cache impact of \(URL(fileURLWithPath: path).lastPathComponent)")
      page.append(
        .paragraph("Block size \(blockSize) tokens; tokens estimated at about four bytes each."))
      for analysis in analyses {
        page.appendAnalysis(of: analysis.reports, title: "\(analysis.path ?? path), block size \(blockSize)")
      }
      try ReportFile.write(page.html, to: html)
      console.printError("wrote \(html)")
    }
    return .success
  }

  /// The reports and summary of a set of records.
  struct Analysis: Encodable {
    /// The records file, when a folder held several.
    var path: String?
    var blockSize: Int
    var reports: [CacheImpactReport]
    var summary: CacheImpactSummary

    init(records: [GenerationRecord], model: PromptCacheModel) async throws {
      blockSize = model.blockSize
      reports = try await CacheImpactAnalyzer.reports(for: records, model: model)
      summary = CacheImpactSummary(reports: reports)
    }

    var text: String {
      CacheImpactTable.text(for: reports) + "\n\n" + summary.description
    }
  }
}
