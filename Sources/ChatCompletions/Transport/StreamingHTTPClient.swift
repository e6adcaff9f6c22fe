import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP client that hands out a response's status and headers as soon as
/// they arrive and its body incrementally, as the network delivers it.
///
/// Linux Foundation has no `URLSession.bytes(for:)`; this client gets the
/// same effect from a `URLSessionDataDelegate` that feeds an
/// `AsyncThrowingStream`. One client owns one `URLSession`, shared by all its
/// requests (create one client per endpoint, not one per request).
///
/// ```swift
/// let client = StreamingHTTPClient(idleTimeout: 60)
/// let response = try await client.send(request)
/// for try await chunk in response.body { … }
/// ```
///
/// Cancelling the task that waits for the head or iterates the body cancels
/// the request and closes its connection.
public final class StreamingHTTPClient: Sendable {
  private let session: URLSession
  private let delegate: StreamingSessionDelegate

  /// Creates a client with its own URLSession.
  ///
  /// - Parameters:
  ///   - idleTimeout: Seconds without any bytes from the server (before the
  ///     head or between body chunks) after which a request fails with
  ///     `URLError.timedOut`.
  ///   - maximumConnectionsPerHost: How many requests may be open to one host
  ///     at once; the rest wait for a connection.
  public init(idleTimeout: TimeInterval = 60, maximumConnectionsPerHost: Int = 16) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = idleTimeout
    configuration.timeoutIntervalForResource = 7 * 24 * 3_600
    configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    let delegate = StreamingSessionDelegate()
    let queue = OperationQueue()
    queue.name = "ContextKit.StreamingHTTPClient"
    queue.maxConcurrentOperationCount = 1
    self.delegate = delegate
    self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
  }

  deinit {
    session.finishTasksAndInvalidate()
  }

  /// The number of requests that have not completed yet.
  public var inFlightRequestCount: Int {
    delegate.inFlightCount
  }

  /// Sends a request and returns as soon as the response head has arrived.
  ///
  /// Throws the transport's error (a `URLError`) when no head arrives, and
  /// `CancellationError` when the calling task is cancelled first.
  public func send(_ request: URLRequest) async throws -> StreamingHTTPResponse {
    try Task.checkCancellation()
    let task = session.dataTask(with: request)
    let cancel: @Sendable () -> Void = { task.cancel() }
    do {
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { head in
          delegate.register(taskIdentifier: task.taskIdentifier, head: head, cancel: cancel)
          task.resume()
        }
      } onCancel: {
        cancel()
      }
    } catch let error as URLError where error.code == .cancelled {
      throw CancellationError()
    }
  }
}
