import Foundation
import ModelSession
import Synchronization

/// Watches a session and reports the prompt-cache impact of each of its
/// generations, as the session publishes their records.
///
/// The observer subscribes when it is created, so create it before the first
/// `respond`. It analyzes records with a ``CacheImpactAnalyzer``, so its
/// reports are exactly those the offline analyzer gives for the same records.
/// ``reports`` has one consumer; ``collectedReports`` and ``summary`` give
/// the reports analyzed so far to anyone, and
/// ``reportsThroughLatestGeneration(of:)`` waits until the latest generation
/// is analyzed.
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
      defer {
        continuation.finish()
        log.finish()
      }
      var analyzer = CacheImpactAnalyzer(model: model)
      for await record in records {
        do {
          let report = try await analyzer.analyze(record)
          log.append(report)
          continuation.yield(report)
        } catch {
          log.fail(String(describing: error))
          return
        }
      }
    }
  }

  deinit {
    task.cancel()
  }

  /// The reports analyzed so far.
  public var collectedReports: [CacheImpactReport] { log.state.withLock { $0.reports } }

  /// The totals of the reports analyzed so far.
  public var summary: CacheImpactSummary { CacheImpactSummary(reports: collectedReports) }

  /// Why the observer stopped early (its token counter threw), if it did.
  public var failureDescription: String? { log.state.withLock { $0.failure } }

  /// The reports analyzed so far, once the report of `session`'s latest
  /// generation is among them (or the observer has stopped): what to read
  /// after `respond` returns, since records are analyzed asynchronously.
  ///
  /// ```swift
  /// try await session.respond(to: "Hello")
  /// let reports = await observer.reportsThroughLatestGeneration(of: session)
  /// ```
  public func reportsThroughLatestGeneration(of session: LanguageModelSession) async -> [CacheImpactReport] {
    if let id = session.latestGenerationRecord?.requestID {
      await withCheckedContinuation { continuation in log.wait(for: id, continuation) }
    }
    return collectedReports
  }
}

/// What an observer's task has analyzed, shared with the observer, and the
/// callers waiting for a report.
private final class ReportLog: Sendable {
  struct State {
    var reports: [CacheImpactReport] = []
    var failure: String?
    var finished = false
    var waiters: [(id: UUID, continuation: CheckedContinuation<Void, Never>)] = []
  }

  let state = Mutex(State())

  func append(_ report: CacheImpactReport) {
    let ready = state.withLock { state in
      state.reports.append(report)
      let ready = state.waiters.filter { $0.id == report.requestID }.map(\.continuation)
      state.waiters.removeAll { $0.id == report.requestID }
      return ready
    }
    for continuation in ready { continuation.resume() }
  }

  func fail(_ description: String) {
    state.withLock { $0.failure = description }
  }

  /// Marks the log complete and releases every waiter.
  func finish() {
    let waiting = state.withLock { state in
      state.finished = true
      defer { state.waiters.removeAll() }
      return state.waiters.map(\.continuation)
    }
    for continuation in waiting { continuation.resume() }
  }

  /// Resumes `continuation` once the report of `id` is in, or the log is complete.
  func wait(for id: UUID, _ continuation: CheckedContinuation<Void, Never>) {
    let ready = state.withLock { state in
      guard !state.finished, !state.reports.contains(where: { $0.requestID == id }) else { return true }
      state.waiters.append((id, continuation))
      return false
    }
    if ready { continuation.resume() }
  }
}
