import Synchronization

/// A one-shot signal between a test and the task it drives: one side fires
/// it, the other waits for it with a deadline, so that a test never sleeps to
/// let another task get somewhere.
///
/// ```swift
/// let reached = TestSignal()
/// let script = ModelScript([.stall(after: events, signalling: reached)])
/// let task = Task { try await session.respond(to: "go") }
/// try await reached.wait(upTo: .seconds(10))  // the model is now mid-stream
/// task.cancel()
/// ```
public final class TestSignal: Sendable {
  /// Why a wait ended without the signal.
  public struct Timeout: Error, CustomStringConvertible {
    /// How long the wait lasted.
    public let duration: Duration
    /// What went wrong, for the test's failure message.
    public var description: String { "the signal did not fire within \(duration)" }
  }

  private struct State {
    var isFired = false
    var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    var nextWaiter = 0
  }

  private let state = Mutex(State())

  /// Creates a signal that has not fired.
  public init() {}

  /// Whether the signal has fired.
  public var isFired: Bool { state.withLock { $0.isFired } }

  /// Fires the signal: every waiter, now and later, goes on.
  public func fire() {
    let waiters = state.withLock { state in
      state.isFired = true
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Waits until the signal fires, or throws `Timeout` after `duration`.
  public func wait(upTo duration: Duration) async throws {
    let id = state.withLock { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    let deadline = Task {
      try await Task.sleep(for: duration)
      self.expire(id, after: duration)
    }
    defer { deadline.cancel() }
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      let resumeNow = state.withLock { state in
        if state.isFired { return true }
        state.waiters[id] = continuation
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  private func expire(_ id: Int, after duration: Duration) {
    let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
    waiter?.resume(throwing: Timeout(duration: duration))
  }
}
