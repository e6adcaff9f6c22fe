import Foundation
import Synchronization

/// Runs work on a dedicated thread with a chosen stack size and waits for it
/// with a deadline, so that a test can check "finishes, without crashing, on
/// a small stack" and "does not block" without hanging the suite.
///
/// ```swift
/// let result = DeadlineThread.run(stackSize: 512 << 10, deadline: .seconds(10)) { deepWork() }
/// #expect(result != nil)  // nil: the deadline passed first
/// ```
public enum DeadlineThread {
  /// Runs `body` on a new thread of `stackSize` bytes; its result, or `nil`
  /// when it has not finished by `deadline` (the thread is then left running).
  public static func run<Result: Sendable>(
    stackSize: Int = 8 << 20, deadline: Duration, _ body: @escaping @Sendable () -> Result
  ) -> Result? {
    let box = ResultBox<Result>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      box.store(body())
      done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    let seconds = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    return box.value
  }
}

/// One value handed from the worker thread to the waiting one.
private final class ResultBox<Value: Sendable>: Sendable {
  private let stored = Mutex<Value?>(nil)

  func store(_ value: sending Value) {
    stored.withLock { $0 = value }
  }

  var value: Value? {
    stored.withLock { $0 }
  }
}
