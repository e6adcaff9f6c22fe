import Foundation
import Synchronization

/// One conversation at a time on each local model server, across every test target.
///
/// The servers of `scripts/local-model` are single-slot llama-cpp-python servers:
/// their prefix cache holds one conversation. Two tests that talk to the same
/// server at once make every request find only the chat template's first tokens
/// in the cache, so each re-evaluates its whole prompt (in a parallel run the
/// small-window server evaluated 8.6 times the prompt tokens it evaluates when the
/// same tests run one after the other). A test holds a server of the lease for as
/// long as it runs; the others wait their turn, first come first served, up to a
/// deadline.
///
/// A lease may hold several servers alike (its environment variable names their
/// URLs, separated by spaces): a test then gets whichever is free, and reads its
/// URL from ``held``.
///
/// All test targets run in one test process, so the shared instances below
/// serialize suites of different targets too.
public final class ServerLease: Sendable {
  /// The lease of the server `CONTEXTKIT_TEST_ENDPOINT` names (4,096-token window).
  public static let standardWindow = ServerLease(variable: "CONTEXTKIT_TEST_ENDPOINT")
  /// The lease of the servers `CONTEXTKIT_TEST_SMALL_WINDOW_ENDPOINT` names (1,024 tokens).
  public static let smallWindow = ServerLease(variable: "CONTEXTKIT_TEST_SMALL_WINDOW_ENDPOINT")

  /// The server a test holds, in the task that runs it (set by ``ServerLeaseTrait``).
  @TaskLocal public static var held: HeldServer?

  /// The servers' environment variable, as error messages name it.
  public let name: String
  /// The URLs of the servers, in the order the variable names them; empty when it is unset.
  public let endpoints: [String]

  private struct State {
    var free: [Int]
    var waiters: [(ticket: Int, continuation: CheckedContinuation<Int, any Error>)] = []
    var nextTicket = 0
    /// Tickets given out whose holders have not joined the queue yet.
    var joining: Set<Int> = []
    /// Waits that ended (deadline, cancellation) before their ticket joined the queue.
    var endedEarly: [Int: any Error] = [:]
  }

  private let state: Mutex<State>

  /// A lease of the servers whose URLs `variable` names (separated by spaces).
  public convenience init(
    variable: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    let endpoints = (environment[variable] ?? "").split(separator: " ").map(String.init)
    self.init(name: variable, endpoints: endpoints)
  }

  /// A lease of the servers at `endpoints` (at least one server, even with no URL).
  public init(name: String, endpoints: [String] = []) {
    self.name = name
    self.endpoints = endpoints
    state = Mutex(State(free: Array(0..<max(1, endpoints.count))))
  }

  /// How many servers the lease hands out.
  public var capacity: Int { max(1, endpoints.count) }

  /// How many of its servers tests hold now.
  public var heldCount: Int { capacity - state.withLock { $0.free.count } }

  /// How many tests wait for a server now.
  public var waitingCount: Int { state.withLock { $0.waiters.count } }

  /// Runs `body` while holding one of the servers, waiting at most `deadline` for it.
  ///
  /// - Throws: ``ServerLeaseTimeout`` when no server is free within
  ///   `deadline`; `CancellationError` when the task is cancelled while waiting;
  ///   and whatever `body` throws. The server is released in every case.
  public func holding<Value: Sendable>(
    within deadline: Duration, _ body: @Sendable (HeldServer) async throws -> Value
  ) async throws -> Value {
    let index = try await acquire(within: deadline)
    defer { release(index) }
    return try await body(
      HeldServer(index: index, endpoint: index < endpoints.count ? endpoints[index] : nil))
  }

  private func acquire(within deadline: Duration) async throws -> Int {
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
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
        join(ticket, continuation)
      }
    } onCancel: {
      abandon(ticket, with: CancellationError())
    }
  }

  /// Takes a free server, or queues `continuation` for one; ends it at once
  /// when the wait ended before it joined.
  private func join(_ ticket: Int, _ continuation: CheckedContinuation<Int, any Error>) {
    let outcome: Result<Int?, any Error> = state.withLock { state in
      state.joining.remove(ticket)
      if let error = state.endedEarly.removeValue(forKey: ticket) {
        return .failure(error)
      }
      guard state.free.isEmpty else {
        return .success(state.free.removeFirst())
      }
      state.waiters.append((ticket, continuation))
      return .success(nil)
    }
    switch outcome {
    case .success(let index?): continuation.resume(returning: index)
    case .success(nil): break
    case .failure(let error): continuation.resume(throwing: error)
    }
  }

  /// Hands server `index` to the first waiter, or frees it.
  private func release(_ index: Int) {
    let next = state.withLock { state -> CheckedContinuation<Int, any Error>? in
      guard !state.waiters.isEmpty else {
        state.free.append(index)
        return nil
      }
      return state.waiters.removeFirst().continuation
    }
    next?.resume(returning: index)
  }

  /// Ends the wait of `ticket` with `error`: now if it waits in the queue, as
  /// soon as it joins the queue if it has not yet; nothing once it holds a server.
  private func abandon(_ ticket: Int, with error: any Error) {
    let waiter = state.withLock { state -> CheckedContinuation<Int, any Error>? in
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
