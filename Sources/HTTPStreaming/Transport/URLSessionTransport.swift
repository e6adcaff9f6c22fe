import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport over Foundation's `URLSession`: the default on Apple
/// platforms, where waiting for an answer costs no CPU.
///
/// On Linux it works but spins a core while it waits (Foundation's libcurl
/// loop polls), so ``CurlTransport`` is the default there; this one stays for
/// comparison in `contextkit-bench`. One transport owns one `URLSession`,
/// shared by all its requests. Back-pressure suspends the data task while
/// the body buffer is full.
package final class URLSessionTransport: HTTPTransport {
  private let session: URLSession
  private let delegate: URLSessionTransportDelegate

  /// Creates a transport with its own ephemeral session (no cookies, no cache).
  package convenience init(maximumConnectionsPerHost: Int = 16) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForResource = 7 * 24 * 3_600
    configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    self.init(configuration: configuration)
  }

  /// Creates a transport whose session has the caller's configuration: its
  /// protocol classes (a `URLProtocol` that answers requests itself), proxies,
  /// headers and timeouts. The transport makes its own session from it,
  /// because it streams through a delegate of its own; each request's
  /// timeout is still the request's.
  package init(configuration: URLSessionConfiguration) {
    let delegate = URLSessionTransportDelegate()
    let queue = OperationQueue()
    queue.name = "ContextKit.URLSessionTransport"
    queue.maxConcurrentOperationCount = 1
    self.delegate = delegate
    self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
  }

  deinit {
    session.finishTasksAndInvalidate()
  }

  /// The number of requests that have not completed yet.
  package var inFlightRequestCount: Int {
    delegate.inFlightCount
  }

  /// Sends a request and returns as soon as the response head has arrived.
  package func send(_ request: HTTPRequest) async throws -> StreamingHTTPResponse {
    try Task.checkCancellation()
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method
    urlRequest.httpBody = request.body
    // URLSession has one timer for "no bytes for this long", before and during the answer.
    urlRequest.timeoutInterval = max(request.timeouts.firstByte, request.timeouts.idle)
    for (name, value) in request.headers {
      urlRequest.setValue(value, forHTTPHeaderField: name)
    }
    let task = session.dataTask(with: urlRequest)
    let cancel: @Sendable () -> Void = { task.cancel() }
    let buffer = HTTPBodyBuffer(resumeProducer: { task.resume() }, cancelProducer: cancel)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { head in
        delegate.register(
          URLSessionTransportDelegate.InFlight(
            request: request, head: head, buffer: buffer, suspend: { task.suspend() }),
          taskIdentifier: task.taskIdentifier)
        task.resume()
      }
    } onCancel: {
      cancel()
    }
  }
}
