import Foundation
import ModelSession

/// Turns a session's generation records, in order, into cache-impact
/// reports: the offline analyzer, and the engine of ``CacheImpactObserver``,
/// so both give the same reports for the same run. Give it the records of
/// one conversation (one session) at a time: each record is compared with
/// the one before it.
///
/// Each record's request is rendered with a ``PromptCacheModel`` and matched
/// against what the earlier generations left in the cache (each one's request
/// followed by its output). The divergence and its cause are found against
/// the previous generation; the reuse counts every stream the model's
/// `lookback` allows.
///
/// ```swift
/// let records = try CacheImpactAnalyzer.records(contentsOf: URL(filePath: "records.json"))
/// let reports = try await CacheImpactAnalyzer.reports(for: records)
/// print(CacheImpactSummary(reports: reports))
/// ```
public struct CacheImpactAnalyzer: Sendable {
  /// The cache model.
  public let model: PromptCacheModel
  /// The reports so far, in order.
  public private(set) var reports: [CacheImpactReport] = []

  private var previous: GenerationRecord?
  private var previousPrompt: RenderedPrompt?
  /// What the cache holds, newest first, at most `model.lookback` streams.
  private var cached: [RenderedPrompt] = []

  /// Creates an analyzer with nothing cached.
  public init(model: PromptCacheModel = PromptCacheModel()) {
    self.model = model
  }

  /// The totals of the reports so far.
  public var summary: CacheImpactSummary { CacheImpactSummary(reports: reports) }

  /// Analyzes the next generation of the session.
  public mutating func analyze(_ record: GenerationRecord) async throws -> CacheImpactReport {
    let prompt = try await model.render(PromptRequest(record: record))
    let match = try await model.reuse(of: prompt, against: cached)
    var divergence: CacheImpactReport.Divergence?
    var cause = CacheImpactCause(kind: .coldStart, detail: "nothing cached yet")
    if let previous, let latest = cached.first {
      let shared = prompt.commonBlockCount(with: latest)
      // The prompt extends the cached stream when it runs out first, or the stream does.
      if shared < prompt.blockCount, shared < latest.blockCount {
        divergence = CacheImpactReport.Divergence(
          blockIndex: shared, location: prompt.location(at: shared),
          tokenOffset: prompt.tokenCount(ofFirst: shared))
        cause = CauseAttribution(previous: previous, current: record).cause()
      } else {
        cause = .appendOnly
      }
    }
    var serverUsage: CacheImpactReport.ServerUsage?
    var comparison: ServerReuseComparison?
    if record.usage.input.totalTokenCount > 0 {
      let reported = record.usage.input.reportedCachedTokenCount
      serverUsage = CacheImpactReport.ServerUsage(
        totalTokenCount: record.usage.input.totalTokenCount, cachedTokenCount: reported,
        cachedTokenSource: record.usage.input.cachedTokenSource)
      if let reported {
        comparison = ServerReuseComparison.compare(
          .init(
            predictedTokenCount: match.reusedTokenCount, reportedTokenCount: reported,
            predictedPromptTokenCount: prompt.tokenCount,
            reportedPromptTokenCount: record.usage.input.totalTokenCount,
            divergenceTokenOffset: divergence?.tokenOffset,
            divergingBlockTokenCount: divergence.map { prompt.tokenCount(at: $0.blockIndex) } ?? 0,
            secondsSincePrevious: previous.map { record.date.timeIntervalSince($0.date) },
            timeToLive: model.timeToLive.map { Double($0.components.seconds) },
            tolerance: model.serverTolerance))
      }
    }
    let report = CacheImpactReport(
      requestID: record.requestID, generationIndex: reports.count, turnIndex: record.turnIndex,
      round: record.round, promptTokenCount: prompt.tokenCount, match: match, divergence: divergence,
      cause: cause, serverUsage: serverUsage, serverComparison: comparison,
      completed: record.outcome == .completed)
    // Everything that can throw comes before the state changes.
    let stream = try await model.cachedStream(after: prompt, output: record.output)
    reports.append(report)
    previous = record
    previousPrompt = prompt
    cached.insert(stream, at: 0)
    if cached.count > model.lookback { cached.removeLast(cached.count - model.lookback) }
    return report
  }

  /// Replaces the output of the latest analyzed generation, for callers that
  /// learn it only later (such as ``ReportingCacheImpact``, which runs before
  /// each generation and sees the previous output in the next history).
  public mutating func replaceLatestOutput(with output: [Transcript.Entry]) async throws {
    guard var record = previous, let prompt = previousPrompt, !cached.isEmpty else { return }
    record.output = output
    previous = record
    cached[0] = try await model.cachedStream(after: prompt, output: output)
  }

  /// The reports for a session's records, in order.
  public static func reports(
    for records: [GenerationRecord], model: PromptCacheModel = PromptCacheModel()
  ) async throws -> [CacheImpactReport] {
    var analyzer = CacheImpactAnalyzer(model: model)
    for record in records { _ = try await analyzer.analyze(record) }
    return analyzer.reports
  }

  /// Decodes saved records: the archive form (`GenerationRecordArchive` in ModelSession,
  /// what `contextkit demo --records` writes) or a JSON array
  /// (`JSONEncoder` of `[GenerationRecord]`).
  ///
  /// - Parameters:
  ///   - data: the bytes of a records file.
  ///   - name: what to call the data in an error, such as its file's path.
  /// - Throws: ``CacheAnalysisError/unreadableRecords(path:reason:)`` naming
  ///   the line and byte offset of the first line that does not read.
  public static func records(
    from data: Data, name: String = "records"
  ) throws(CacheAnalysisError)
    -> [GenerationRecord]
  {
    do {
      return try GenerationRecordArchive.decode(data, name: name)
    } catch {
      throw .unreadableRecords(
        path: name, reason: "line \(error.line) (byte \(error.byteOffset)): \(error.reason)")
    }
  }

  /// Reads saved records from a file of at most 1 GiB (either form).
  public static func records(contentsOf url: URL) throws(CacheAnalysisError) -> [GenerationRecord] {
    let data: Data
    do {
      data = try FileReader.read(url.path, limit: 1 << 30)
    } catch {
      throw .unreadableRecords(path: url.path, reason: error.explanation)
    }
    return try records(from: data, name: url.path)
  }

  /// Reads the records of a file, or of every file in a folder (name order,
  /// hidden files left out), one conversation per file; each file at most 1 GiB.
  public static func conversations(
    contentsOf url: URL
  ) throws(CacheAnalysisError) -> [(path: String, records: [GenerationRecord])] {
    do {
      return try GenerationRecordArchive.read(contentsOf: url)
    } catch {
      let place = error.line > 0 ? "line \(error.line) (byte \(error.byteOffset)): " : ""
      throw .unreadableRecords(path: error.path, reason: place + error.reason)
    }
  }
}
