#if canImport(CCurl)
import CCurl
import Foundation
import Synchronization

/// Identifies one request, and remembers whether it was cancelled before the
/// loop thread started it.
final class CurlRequestToken: Sendable {
  let id: Int
  private let cancelled = Atomic(false)

  init(id: Int) {
    self.id = id
  }

  var isCancelled: Bool {
    cancelled.load(ordering: .acquiring)
  }

  func cancel() {
    cancelled.store(true, ordering: .releasing)
  }
}

/// What the loop thread needs to start a transfer.
struct CurlTransferStart: Sendable {
  let token: CurlRequestToken
  let request: HTTPRequest
  let head: CheckedContinuation<StreamingHTTPResponse, any Error>
  let buffer: HTTPBodyBuffer
  /// Called once when the transfer has ended, whichever way.
  let finished: @Sendable () -> Void
}

/// A request to the loop thread.
enum CurlCommand: Sendable {
  /// Start a transfer.
  case start(CurlTransferStart)
  /// Stop a transfer and close its connection.
  case cancel(Int)
  /// Unpause a transfer whose consumer has drained its buffer.
  case resume(Int)
}

/// The process's libcurl event loop: one thread that owns a multi handle and
/// every transfer on it, and a queue of commands that other threads post to it.
///
/// The thread sleeps in `curl_multi_poll` with an eventfd among the watched
/// descriptors; ``enqueue(_:)`` writes to that eventfd to wake it (what
/// `curl_multi_wakeup` does inside libcurl), so that no other thread ever
/// touches the multi handle.
final class CurlEventLoop: Sendable {
  /// The loop of this process, started on first use.
  static let shared = CurlEventLoop()

  private let commands = Mutex<[CurlCommand]>([])
  private let nextIdentifier = Atomic(0)
  let wakeDescriptor: Int32

  private init() {
    curl_global_init(ck_global_default())
    wakeDescriptor = ck_make_wake_descriptor()
    Thread.detachNewThread { [self] in
      CurlLoopThread(loop: self).run()
    }
  }

  /// A new request identifier.
  func makeIdentifier() -> Int {
    nextIdentifier.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// Posts a command and wakes the loop thread.
  func enqueue(_ command: CurlCommand) {
    commands.withLock { $0.append(command) }
    ck_wake(wakeDescriptor)
  }

  /// The commands posted since the last call, in order.
  func takeCommands() -> [CurlCommand] {
    commands.withLock { pending in
      defer { pending.removeAll(keepingCapacity: true) }
      return pending
    }
  }
}
#endif
