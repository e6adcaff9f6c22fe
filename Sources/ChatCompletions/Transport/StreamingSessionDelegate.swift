import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of a ``StreamingHTTPClient``'s URLSession: routes each data
/// task's response head, body bytes and completion to the caller waiting for
/// them, as they arrive.
///
/// One delegate serves every task of its session; its state is a table of
/// in-flight tasks behind a `Mutex`.
final class StreamingSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
  private struct InFlight {
    var head: CheckedContinuation<StreamingHTTPResponse, any Error>?
    /// Held only until the head hands it out: once the caller drops it (or
    /// stops iterating), the stream terminates and cancels the task.
    var body: AsyncThrowingStream<Data, any Error>?
    let bodyContinuation: AsyncThrowingStream<Data, any Error>.Continuation
  }

  private let inFlight = Mutex<[Int: InFlight]>([:])

  /// The number of tasks whose completion has not been seen yet.
  var inFlightCount: Int {
    inFlight.withLock { $0.count }
  }

  /// Starts routing the events of the task with this identifier.
  ///
  /// `head` is resumed with the response head when it arrives, or with the
  /// error if the task fails first. Stopping the body's iteration calls `cancel`.
  func register(
    taskIdentifier: Int, head: CheckedContinuation<StreamingHTTPResponse, any Error>,
    cancel: @escaping @Sendable () -> Void
  ) {
    let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
    continuation.onTermination = { termination in
      if case .cancelled = termination {
        cancel()
      }
    }
    inFlight.withLock {
      $0[taskIdentifier] = InFlight(head: head, body: body, bodyContinuation: continuation)
    }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let waiting = inFlight.withLock {
      tasks -> (CheckedContinuation<StreamingHTTPResponse, any Error>, StreamingHTTPResponse)? in
      guard let task = tasks[dataTask.taskIdentifier], let head = task.head, let body = task.body else {
        return nil
      }
      tasks[dataTask.taskIdentifier]?.head = nil
      tasks[dataTask.taskIdentifier]?.body = nil
      guard let http = response as? HTTPURLResponse else {
        return (head, StreamingHTTPResponse(status: 0, headers: HTTPHeaderFields(), body: body))
      }
      var headers = HTTPHeaderFields()
      for (name, value) in http.allHeaderFields {
        if let name = name as? String, let value = value as? String {
          headers[name] = value
        }
      }
      return (head, StreamingHTTPResponse(status: http.statusCode, headers: headers, body: body))
    }
    guard let (head, response) = waiting else {
      completionHandler(.cancel)
      return
    }
    if response.status == 0 {
      completionHandler(.cancel)
      head.resume(throwing: URLError(.badServerResponse))
      return
    }
    completionHandler(.allow)
    head.resume(returning: response)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let continuation = inFlight.withLock { $0[dataTask.taskIdentifier]?.bodyContinuation }
    continuation?.yield(data)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    guard let finished = inFlight.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
    if let head = finished.head {
      head.resume(throwing: error ?? URLError(.badServerResponse))
    }
    if let error {
      finished.bodyContinuation.finish(throwing: error)
    } else {
      finished.bodyContinuation.finish()
    }
  }
}
