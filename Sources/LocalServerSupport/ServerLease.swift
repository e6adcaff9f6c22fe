import Synchronization

/// One conversation at a time on a local model server, across every test target.
///
/// The servers of `scripts/local-model` are single-slot llama-cpp-python servers:
/// their prefix cache holds one conversation. Two tests that talk to the same
/// server at once make every request find only the chat template's first tokens
/// in the cache, so each re-evaluates its whole prompt (in a parallel run the
/// small-window server evaluated 8.6 times the prompt tokens it evaluates when the
/// same tests run one after the other). A test holds its server's lease for as
/// long as it runs; the others wait their turn, first come first served, up to a
/// deadline.
///
/// All test targets run in one test process, so the shared instances below
/// serialize suites of different targets too.
public final class ServerLease: Sendable {
  /// The lease of the server `CONTEXTKIT_TEST_ENDPOINT` names (4,096-token window).
  public static let standardWindow = ServerLease(name: "CONTEXTKIT_TEST_ENDPOINT")
  /// The lease of the server `CONTEXTKIT_TEST_SMALL_WINDOW_ENDPOINT` names (2,048 tokens).
  public static let smallWindow = ServerLease(name: "CONTEXTKIT_TEST_SMALL_WINDOW_ENDPOINT")

  /// The server this lease is for, as error messages name it.
  public let name: String

  private struct State {
    var isHeld = false
    var waiters: [(ticket: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    var nextTicket = 0
    /// Tickets given out whose holders have not joined the queue yet.
    var joining: Set<Int> = []
    /// Waits that ended (deadline, cancellation) before their ticket joined the queue.
    var endedEarly: [Int: any Error] = [:]
  }

  private let state = Mutex(State())

  /// A lease for the server that `name` identifies in messages.
  public init(name: String) {
    self.name = name
  }

  /// Whether a test holds the lease now.
  public var isHeld: Bool { state.withLock { $0.isHeld } }

  /// How many tests wait for the lease now.
  public var waitingCount: Int { state.withLock { $0.waiters.count } }

  /// Runs `body` while holding the lease, waiting at most `deadline` for it.
  ///
  /// - Throws: ``ServerLeaseTimeout`` when the lease is not free within
  ///   `deadline`; `CancellationError` when the task is cancelled while waiting;
  ///   and whatever `body` throws. The lease is released in every case.
  public func holding<Value: Sendable>(
    within deadline: Duration, _ body: @Sendable () async throws -> Value
  ) async throws -> Value {
    try await acquire(within: deadline)
    defer { release() }
    return try await body()
  }

  private func acquire(within deadline: Duration) async throws {
    try Task.checkCancellation()
    let ticket = state.withLock { state in
      defer { state.nextTicket += 1 }
      state.joining.insert(state.nextTicket)
      return state.nextTicket
    }
    let timeout = Task {
      try await Task.sleep(for: deadline)
      self.abandon(ticket, with: ServerLeaseTimeout(server: name, deadline: deadline))
    }
    defer { timeout.cancel() }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        join(ticket, continuation)
      }
    } onCancel: {
      abandon(ticket, with: CancellationError())
    }
  }

  /// Takes the lease if it is free, or queues `continuation` for it; ends it at
  /// once when the wait ended before it joined.
  private func join(_ ticket: Int, _ continuation: CheckedContinuation<Void, any Error>) {
    let outcome: Result<Bool, any Error> = state.withLock { state in
      state.joining.remove(ticket)
      if let error = state.endedEarly.removeValue(forKey: ticket) {
        return .failure(error)
      }
      guard state.isHeld else {
        state.isHeld = true
        return .success(true)
      }
      state.waiters.append((ticket, continuation))
      return .success(false)
    }
    switch outcome {
    case .success(true): continuation.resume()
    case .success(false): break
    case .failure(let error): continuation.resume(throwing: error)
    }
  }

  /// Hands the lease to the first waiter, or frees it.
  private func release() {
    let next = state.withLock { state in
      guard !state.waiters.isEmpty else {
        state.isHeld = false
        return CheckedContinuation<Void, any Error>?.none
      }
      return state.waiters.removeFirst().continuation
    }
    next?.resume()
  }

  /// Ends the wait of `ticket` with `error`: now if it waits in the queue, as
  /// soon as it joins the queue if it has not yet; nothing once it holds the lease.
  private func abandon(_ ticket: Int, with error: any Error) {
    let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
      if let index = state.waiters.firstIndex(where: { $0.ticket == ticket }) {
        return state.waiters.remove(at: index).continuation
      }
      if state.joining.contains(ticket) {
        state.endedEarly[ticket] = error
      }
      return nil
    }
    waiter?.resume(throwing: error)
  }
}
