#if canImport(CCurl)
import Foundation
import Synchronization

/// A transport over libcurl's multi interface: the default on Linux.
///
/// Every request of the process runs on one event-loop thread
/// (``CurlEventLoop``) that sleeps in `curl_multi_poll` until a socket is
/// ready, a timer is due or a command arrives, so a request that waits for
/// its answer costs no CPU. Connections are kept alive and reused; a request
/// whose reused connection breaks before any byte of its answer's body has
/// arrived goes out once more on a new connection (a server may close a
/// kept-alive connection just as the next request goes out on it), so the
/// head of an answer on a reused connection comes with its first body byte.
/// TLS is verified against the system's certificate store; proxies come from the
/// usual environment variables (`http_proxy`, `https_proxy`, `no_proxy`).
/// A slow consumer pauses the transfer (back-pressure) instead of buffering
/// without bound.
package final class CurlTransport: HTTPTransport {
  private let loop: CurlEventLoop
  private let open = Mutex(0)

  /// Creates a transport on the process's event loop.
  package init() {
    self.loop = CurlEventLoop.shared
  }

  /// The number of requests of this transport whose transfer has not ended yet.
  package var inFlightRequestCount: Int {
    open.withLock { $0 }
  }

  /// Sends a request and returns as soon as the response head has arrived.
  package func send(_ request: HTTPRequest) async throws -> StreamingHTTPResponse {
    try Task.checkCancellation()
    let token = CurlRequestToken(id: loop.makeIdentifier())
    let loop = self.loop
    let buffer = HTTPBodyBuffer(
      resumeProducer: { loop.enqueue(.resume(token.id)) },
      cancelProducer: { loop.enqueue(.cancel(token.id)) })
    open.withLock { $0 += 1 }
    let finished: @Sendable () -> Void = { [weak self] in self?.open.withLock { $0 -= 1 } }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { head in
        loop.enqueue(
          .start(
            CurlTransferStart(token: token, request: request, head: head, buffer: buffer, finished: finished))
        )
      }
    } onCancel: {
      token.cancel()
      loop.enqueue(.cancel(token.id))
    }
  }
}
#endif
