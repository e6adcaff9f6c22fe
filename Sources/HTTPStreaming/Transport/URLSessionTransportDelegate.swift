import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of a ``URLSessionTransport``'s session: routes each data
/// task's head, body bytes and completion to the caller waiting for them,
/// refuses redirects (the client applies its own policy to the 3xx answer),
/// and turns `URLError`s into ``TransportFailure``s.
final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate, Sendable {
  /// One request in flight.
  struct InFlight {
    let request: HTTPRequest
    var head: CheckedContinuation<StreamingHTTPResponse, any Error>?
    let buffer: HTTPBodyBuffer
    let suspend: @Sendable () -> Void
  }

  private let inFlight = Mutex<[Int: InFlight]>([:])

  /// The number of tasks whose completion has not been seen yet.
  var inFlightCount: Int {
    inFlight.withLock { $0.count }
  }

  /// Starts routing the events of the task with this identifier.
  func register(_ request: InFlight, taskIdentifier: Int) {
    inFlight.withLock { $0[taskIdentifier] = request }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let waiting = inFlight.withLock {
      tasks -> (CheckedContinuation<StreamingHTTPResponse, any Error>, HTTPBodyBuffer)? in
      guard let task = tasks[dataTask.taskIdentifier], let head = task.head else { return nil }
      tasks[dataTask.taskIdentifier]?.head = nil
      return (head, task.buffer)
    }
    guard let (head, buffer) = waiting else {
      completionHandler(.cancel)
      return
    }
    guard let http = response as? HTTPURLResponse else {
      completionHandler(.cancel)
      head.resume(throwing: TransportFailure.invalidResponse("the answer was not an HTTP response"))
      return
    }
    guard !(100..<200).contains(http.statusCode) else {
      // Linux's URLSession hands an interim head (103 Early Hints, say) over as
      // the response and the final head is lost: its status cannot be known.
      completionHandler(.cancel)
      head.resume(
        throwing: TransportFailure.invalidResponse(
          "the server sent an interim \(http.statusCode) response, which URLSession reported as the final "
            + "one (the final status is lost); CurlTransport passes over interim responses"))
      return
    }
    var headers = HTTPHeaderFields()
    for (name, value) in http.allHeaderFields {
      if let name = name as? String, let value = value as? String {
        headers[name] = value
      }
    }
    completionHandler(.allow)
    head.resume(
      returning: StreamingHTTPResponse(
        status: http.statusCode, headers: headers, body: HTTPBody(buffer: buffer)))
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard let task = inFlight.withLock({ $0[dataTask.taskIdentifier] }) else { return }
    switch task.buffer.offer(data, canRefuse: false) {
    case .accepted, .refused: break
    case .acceptedThenPause: task.suspend()
    case .consumerGone: dataTask.cancel()
    }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    guard let finished = inFlight.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
    let failure = error.map { Self.failure($0, request: finished.request, headArrived: finished.head == nil) }
    if let head = finished.head {
      head.resume(
        throwing: failure
          ?? TransportFailure.invalidResponse("the server closed the connection without an answer"))
    }
    finished.buffer.finish(throwing: failure)
  }

  /// The transport failure for a `URLError` (`CancellationError` for a cancelled task).
  static func failure(_ error: any Error, request: HTTPRequest, headArrived: Bool) -> any Error {
    guard let urlError = error as? URLError else {
      return TransportFailure.connectionFailed("connection to \(request.url.absoluteString) failed: \(error)")
    }
    let url = request.url.absoluteString
    switch urlError.code {
    case .cancelled:
      return CancellationError()
    case .timedOut:
      return headArrived
        ? TransportFailure.idleTimeout(seconds: request.timeouts.idle, url: url)
        : TransportFailure.firstByteTimeout(seconds: request.timeouts.firstByte, url: url)
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
      .clientCertificateRequired:
      return TransportFailure.tlsFailed("TLS with \(url) failed (URLError \(urlError.code.rawValue))")
    case .badServerResponse, .cannotParseResponse, .badURL, .unsupportedURL:
      return TransportFailure.invalidResponse(
        "unusable response from \(url) (URLError \(urlError.code.rawValue))")
    case .httpTooManyRedirects:
      return TransportFailure.invalidResponse("\(url) redirected too many times")
    default:
      return TransportFailure.connectionFailed(
        "connection to \(url) failed (URLError \(urlError.code.rawValue))")
    }
  }
}
