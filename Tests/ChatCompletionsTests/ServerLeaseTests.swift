import LocalServerSupport
import Synchronization
import TestSupport
import Testing

/// The lease that keeps the live tests' conversations from interleaving on one
/// local model server.
@Suite(.timeLimit(.minutes(10)))
struct ServerLeaseTests {
  /// What the holders did, in order.
  final class Events: Sendable {
    private let events = Mutex<[String]>([])
    func append(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
  }

  /// Starts a holder that records its turn, and waits until it is queued.
  private func queue(
    _ name: String, on lease: ServerLease, after waiting: Int, events: Events
  ) async throws
    -> Task<Void, any Error>
  {
    let task = Task {
      try await lease.holding(within: .seconds(60)) {
        events.append("\(name) in")
        events.append("\(name) out")
      }
    }
    #expect(try await eventually { lease.waitingCount == waiting + 1 }, "\(name) never queued")
    return task
  }

  @Test func `holders take turns in the order they came, never two at once`() async throws {
    let lease = ServerLease(name: "test server")
    let events = Events()
    let firstHolds = TestSignal()
    let firstMayGo = TestSignal()
    let first = Task {
      try await lease.holding(within: .seconds(60)) {
        events.append("first in")
        firstHolds.fire()
        try await firstMayGo.wait(upTo: .seconds(60))
        events.append("first out")
      }
    }
    try await firstHolds.wait(upTo: .seconds(60))
    let second = try await queue("second", on: lease, after: 0, events: events)
    let third = try await queue("third", on: lease, after: 1, events: events)
    #expect(events.all == ["first in"])
    #expect(lease.isHeld)

    firstMayGo.fire()
    try await first.value
    try await second.value
    try await third.value
    #expect(events.all == ["first in", "first out", "second in", "second out", "third in", "third out"])
    #expect(!lease.isHeld)
    #expect(lease.waitingCount == 0)
  }

  @Test func `a holder that throws releases the lease to the next`() async throws {
    struct Failure: Error {}
    let lease = ServerLease(name: "test server")
    await #expect(throws: Failure.self) {
      try await lease.holding(within: .seconds(60)) { throw Failure() }
    }
    #expect(!lease.isHeld)
    let answer = try await lease.holding(within: .seconds(60)) { 42 }
    #expect(answer == 42)
    #expect(!lease.isHeld)
  }

  @Test func `a wait past its deadline fails with the server's name and leaves the queue`() async throws {
    let lease = ServerLease(name: "CONTEXTKIT_TEST_EXAMPLE")
    let holds = TestSignal()
    let mayGo = TestSignal()
    let holder = Task {
      try await lease.holding(within: .seconds(60)) {
        holds.fire()
        try await mayGo.wait(upTo: .seconds(60))
      }
    }
    try await holds.wait(upTo: .seconds(60))
    let error = await #expect(throws: ServerLeaseTimeout.self) {
      try await lease.holding(within: .milliseconds(50)) { Issue.record("ran without the lease") }
    }
    #expect(error?.server == "CONTEXTKIT_TEST_EXAMPLE")
    #expect(error?.deadline == .milliseconds(50))
    #expect(lease.waitingCount == 0)
    #expect(lease.isHeld)

    mayGo.fire()
    try await holder.value
    #expect(!lease.isHeld)
  }

  @Test func `a cancelled wait ends with CancellationError and leaves the queue`() async throws {
    let lease = ServerLease(name: "test server")
    let holds = TestSignal()
    let mayGo = TestSignal()
    let holder = Task {
      try await lease.holding(within: .seconds(60)) {
        holds.fire()
        try await mayGo.wait(upTo: .seconds(60))
      }
    }
    try await holds.wait(upTo: .seconds(60))
    let ran = Mutex(false)
    let waiter = Task {
      try await lease.holding(within: .seconds(60)) { ran.withLock { $0 = true } }
    }
    #expect(try await eventually { lease.waitingCount == 1 })
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    #expect(lease.waitingCount == 0)

    mayGo.fire()
    try await holder.value
    #expect(!ran.withLock { $0 })
    #expect(!lease.isHeld)
  }

  @Test func `the shared leases name their servers' variables`() {
    #expect(ServerLease.standardWindow.name == "CONTEXTKIT_TEST_ENDPOINT")
    #expect(ServerLease.smallWindow.name == "CONTEXTKIT_TEST_SMALL_WINDOW_ENDPOINT")
    #expect(ServerLease.standardWindow !== ServerLease.smallWindow)
  }
}
