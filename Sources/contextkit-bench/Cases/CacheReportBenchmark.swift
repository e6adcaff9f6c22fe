import CacheAnalysis
import Foundation
import ModelSession

/// The cache report of one generation whose history holds N entries, with
/// the entries of the generation before it already rendered (as in a
/// session that is analyzed as it goes): the cost per entry should not
/// depend on N, and the memory the analysis keeps should grow linearly.
///
/// One operation analyzes two generations from a fresh analyzer that shares
/// the warm model: the previous one (N - 2 entries and its answer) and the
/// next (N entries).
enum CacheReportBenchmark {
  static let entryCounts = [1_000, 10_000, 100_000, 1_000_000]

  static var registrations: [BenchmarkRegistration] {
    entryCounts.map { count in
      BenchmarkRegistration(name: "cache/report/\(count)-entries") { try make(entryCount: count) }
    }
  }

  static func make(entryCount: Int) throws -> BenchmarkCase {
    let residentBefore = residentBytes()
    let (previous, next) = records(entryCount: entryCount)
    let residentWithRecords = residentBytes()
    let model = try PromptCacheModel(blockSize: 16)
    let analyze: @Sendable () async throws -> Int = {
      var analyzer = CacheImpactAnalyzer(model: model)
      _ = try await analyzer.analyze(previous)
      return try await analyzer.analyze(next).reusedTokenCount
    }
    // Renders every entry once, as the generations before would have.
    let reused = try AsyncBenchmarkRunner.run(analyze)
    guard reused > 0 else { throw BenchmarkSetupError(description: "the next generation reused nothing") }
    let residentAfter = residentBytes()
    let records = residentWithRecords - residentBefore
    let analysis = residentAfter - residentWithRecords
    let note =
      "memory at \(entryCount) entries: records \(megabytes(records)), analysis (rendered entries, cached "
      + "streams) \(megabytes(analysis)) = \(analysis / max(1, entryCount)) bytes per entry"
    return BenchmarkCase(
      name: "cache/report/\(entryCount)-entries", run: { try AsyncBenchmarkRunner.run(analyze) },
      unit: BenchmarkUnit(name: "entry", countPerOperation: 2 * entryCount), note: note,
      memory: BenchmarkMemory(inputBytes: records, analysisBytes: analysis))
  }

  /// Two consecutive records of a conversation: the previous generation
  /// (N - 2 entries, answered) and the next one (its history plus the answer
  /// and a new prompt).
  static func records(entryCount: Int) -> (GenerationRecord, GenerationRecord) {
    var entries: [Transcript.Entry] = [
      .instructions(
        Transcript.Instructions(
          id: "instructions", segments: [.text(.init(id: "i", content: "You answer questions briefly."))],
          toolDefinitions: []))
    ]
    var turn = 0
    while entries.count < entryCount - 2 {
      entries.append(.prompt(Transcript.Prompt(id: "p\(turn)", segments: [text("p\(turn)", turn)])))
      if turn % 10 == 3 {
        let call = Transcript.ToolCall(
          id: "c\(turn)", toolName: "search",
          arguments: GeneratedContent(
            kind: .structure(
              properties: ["query": GeneratedContent(kind: .string("query \(turn)"))], orderedKeys: ["query"])
          ))
        entries.append(.toolCalls(Transcript.ToolCalls(id: "t\(turn)", [call])))
        entries.append(
          .toolOutput(
            Transcript.ToolOutput(id: call.id, toolName: "search", segments: [text("o\(turn)", turn)])))
      }
      entries.append(
        .response(Transcript.Response(id: "r\(turn)", assetIDs: [], segments: [text("r\(turn)", turn)])))
      turn += 1
    }
    entries = Array(entries.prefix(entryCount - 2))
    if case .response = entries.last {
      entries[entries.count - 1] = .prompt(Transcript.Prompt(id: "p-last", segments: [text("p-last", turn)]))
    }
    let answer = Transcript.Entry.response(
      Transcript.Response(id: "r-last", assetIDs: [], segments: [text("r-last", turn)]))
    let prompt = Transcript.Entry.prompt(
      Transcript.Prompt(id: "p-next", segments: [text("p-next", turn + 1)]))
    let previous = record(Transcript(entries: entries), output: [answer], turn: turn)
    let next = record(Transcript(entries: entries + [answer, prompt]), output: [], turn: turn + 1)
    return (previous, next)
  }

  private static func text(_ id: String, _ turn: Int) -> Transcript.Segment {
    .text(
      .init(
        id: id, content: "\(id): a short line of about eighty bytes for turn \(turn) of the conversation."))
  }

  private static func record(
    _ transcript: Transcript, output: [Transcript.Entry], turn: Int
  ) -> GenerationRecord {
    GenerationRecord(
      requestID: UUID(), turnIndex: turn, round: 0, date: Date(timeIntervalSince1970: 0),
      storedHistory: transcript,
      stages: [], sentTranscript: transcript, instructions: nil, toolDefinitions: [],
      generationOptions: GenerationOptions(), contextOptions: ContextOptions(), schema: nil, output: output,
      usage: .zero, notes: [], outcome: .completed)
  }

  /// The process's resident memory in bytes (`/proc/self/statm`), 0 where it cannot be read.
  /// Growth between two readings is memory the work kept (freed memory may stay resident, so
  /// run the sizes in increasing order, as `--filter cache/report` does).
  static func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  private static func megabytes(_ bytes: Int) -> String {
    String(format: "%.1f MB", Double(bytes) / 1_048_576)
  }
}
