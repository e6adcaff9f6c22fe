import ModelSession
import Synchronization

/// Watches a session and reports the prompt-cache impact of each of its
/// generations, as the session publishes their records.
///
/// The observer subscribes when it is created, so create it before the first
/// `respond`. It analyzes records with a ``CacheImpactAnalyzer``, so its
/// reports are exactly those the offline analyzer gives for the same records.
/// ``reports`` has one consumer; ``collectedReports`` and ``summary`` give
/// the reports analyzed so far to anyone.
///
/// ```swift
/// let observer = CacheImpactObserver(session: session)
/// Task {
///   for await report in observer.reports where report.cause.isInvalidation {
///     print("cache invalidated: \(report.cause)")
///   }
/// }
/// try await session.respond(to: "Hello")
/// ```
public final class CacheImpactObserver: Sendable {
  /// The reports, one per generation, in order. It ends when the session is released.
  public let reports: AsyncStream<CacheImpactReport>
  /// The cache model the reports use.
  public let model: PromptCacheModel

  private let log: ReportLog
  private let task: Task<Void, Never>

  /// Starts observing `session`.
  public init(session: LanguageModelSession, model: PromptCacheModel = PromptCacheModel()) {
    self.model = model
    let records = session.generationRecords
    let (stream, continuation) = AsyncStream<CacheImpactReport>.makeStream()
    reports = stream
    let log = ReportLog()
    self.log = log
    task = Task {
      defer { continuation.finish() }
      var analyzer = CacheImpactAnalyzer(model: model)
      for await record in records {
        do {
          let report = try await analyzer.analyze(record)
          log.reports.withLock { $0.append(report) }
          continuation.yield(report)
        } catch {
          log.failure.withLock { $0 = String(describing: error) }
          return
        }
      }
    }
  }

  deinit {
    task.cancel()
  }

  /// The reports analyzed so far.
  public var collectedReports: [CacheImpactReport] { log.reports.withLock { $0 } }

  /// The totals of the reports analyzed so far.
  public var summary: CacheImpactSummary { CacheImpactSummary(reports: collectedReports) }

  /// Why the observer stopped early (its token counter threw), if it did.
  public var failureDescription: String? { log.failure.withLock { $0 } }
}

/// What an observer's task has analyzed, shared with the observer.
private final class ReportLog: Sendable {
  let reports = Mutex<[CacheImpactReport]>([])
  let failure = Mutex<String?>(nil)
}
