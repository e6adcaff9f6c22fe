import LocalServerSupport
import Synchronization
import TestSupport
import Testing

/// The lease that keeps the live tests' conversations from interleaving on one
/// local model server.
@Suite(.timeLimit(.minutes(10)))
struct ServerLeaseTests {
  /// Starts a holder that records its turn, and waits until it is queued.
  private func queue(
    _ name: String, on lease: ServerLease, after waiting: Int, events: CallLog
  ) async throws
    -> Task<Void, any Error>
  {
    let task = Task {
      try await lease.holding(within: .seconds(60)) { _ in
        events.append("\(name) in")
        events.append("\(name) out")
      }
    }
    #expect(try await eventually { lease.waitingCount == waiting + 1 }, "\(name) never queued")
    return task
  }

  /// Starts a holder of `lease` and waits until it holds a server; it keeps
  /// the server until the returned signal fires.
  private func startHolder(
    of lease: ServerLease
  ) async throws -> (holder: Task<Void, any Error>, mayGo: TestSignal) {
    let holds = TestSignal()
    let mayGo = TestSignal()
    let holder = Task {
      try await lease.holding(within: .seconds(60)) { _ in
        holds.fire()
        try await mayGo.wait(upTo: .seconds(60))
      }
    }
    try await holds.wait(upTo: .seconds(60))
    return (holder, mayGo)
  }

  @Test func `holders take turns in the order they came, never two at once`() async throws {
    let lease = ServerLease(name: "test server")
    let events = CallLog()
    let firstHolds = TestSignal()
    let firstMayGo = TestSignal()
    let first = Task {
      try await lease.holding(within: .seconds(60)) { _ in
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
    #expect(lease.heldCount == 1)

    firstMayGo.fire()
    try await first.value
    try await second.value
    try await third.value
    #expect(events.all == ["first in", "first out", "second in", "second out", "third in", "third out"])
    #expect(lease.heldCount == 0)
    #expect(lease.waitingCount == 0)
  }

  @Test func `a holder that throws releases the lease to the next`() async throws {
    struct Failure: Error {}
    let lease = ServerLease(name: "test server")
    await #expect(throws: Failure.self) {
      try await lease.holding(within: .seconds(60)) { _ in throw Failure() }
    }
    #expect(lease.heldCount == 0)
    let answer = try await lease.holding(within: .seconds(60)) { _ in 42 }
    #expect(answer == 42)
    #expect(lease.heldCount == 0)
  }

  @Test func `a wait past its deadline fails with the server's name and leaves the queue`() async throws {
    let lease = ServerLease(name: "CONTEXTKIT_TEST_EXAMPLE")
    let (holder, mayGo) = try await startHolder(of: lease)
    let error = await #expect(throws: ServerLeaseTimeout.self) {
      try await lease.holding(within: .milliseconds(50)) { _ in Issue.record("ran without the lease") }
    }
    #expect(error?.server == "CONTEXTKIT_TEST_EXAMPLE")
    #expect(error?.deadline == .milliseconds(50))
    #expect(lease.waitingCount == 0)
    #expect(lease.heldCount == 1)

    mayGo.fire()
    try await holder.value
    #expect(lease.heldCount == 0)
  }

  @Test func `a cancelled wait ends with CancellationError and leaves the queue`() async throws {
    let lease = ServerLease(name: "test server")
    let (holder, mayGo) = try await startHolder(of: lease)
    let ran = Mutex(false)
    let waiter = Task {
      try await lease.holding(within: .seconds(60)) { _ in ran.withLock { $0 = true } }
    }
    #expect(try await eventually { lease.waitingCount == 1 })
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    #expect(lease.waitingCount == 0)

    mayGo.fire()
    try await holder.value
    #expect(!ran.withLock { $0 })
    #expect(lease.heldCount == 0)
  }

  @Test func `the shared leases name their servers' variables`() {
    #expect(ServerLease.standardWindow.name == "CONTEXTKIT_TEST_ENDPOINT")
    #expect(ServerLease.smallWindow.name == "CONTEXTKIT_TEST_SMALL_WINDOW_ENDPOINT")
    #expect(ServerLease.standardWindow !== ServerLease.smallWindow)
  }

  @Test func `a variable naming several servers gives a lease of as many, one server when unset`() {
    let two = ServerLease(
      variable: "SERVERS", environment: ["SERVERS": "http://127.0.0.1:1 http://127.0.0.1:2"])
    #expect(two.endpoints == ["http://127.0.0.1:1", "http://127.0.0.1:2"])
    #expect(two.capacity == 2)
    let unset = ServerLease(variable: "SERVERS", environment: [:])
    #expect(unset.endpoints == [])
    #expect(unset.capacity == 1)
  }

  /// The servers the holders got, in the order they got them.
  final class Holdings: Sendable {
    private let servers = Mutex<[HeldServer]>([])
    /// Records `server`; returns how many servers were handed out so far.
    func append(_ server: HeldServer) -> Int {
      servers.withLock { servers in
        servers.append(server)
        return servers.count
      }
    }
    var all: [HeldServer] { servers.withLock { $0 } }
  }

  /// Starts a holder that records its server, fires `bothHold` as the second
  /// holder, and keeps its server until `mayGo` fires.
  private static func holder(
    of lease: ServerLease, into holdings: Holdings, bothHold: TestSignal, mayGo: TestSignal
  ) -> Task<Void, any Error> {
    Task {
      try await lease.holding(within: .seconds(60)) { server in
        if holdings.append(server) == 2 { bothHold.fire() }
        try await mayGo.wait(upTo: .seconds(60))
      }
    }
  }

  @Test func `with two servers, two holders run at once on different servers and a third waits`() async throws
  {
    let lease = ServerLease(name: "pool", endpoints: ["http://a", "http://b"])
    let holdings = Holdings()
    let bothHold = TestSignal()
    let mayGo = TestSignal()
    let first = Self.holder(of: lease, into: holdings, bothHold: bothHold, mayGo: mayGo)
    let second = Self.holder(of: lease, into: holdings, bothHold: bothHold, mayGo: mayGo)
    try await bothHold.wait(upTo: .seconds(60))
    #expect(Set(holdings.all.map(\.endpoint)) == ["http://a", "http://b"])
    #expect(lease.heldCount == 2)
    let third = Self.holder(of: lease, into: holdings, bothHold: bothHold, mayGo: mayGo)
    #expect(try await eventually { lease.waitingCount == 1 })
    #expect(holdings.all.count == 2)

    mayGo.fire()
    try await first.value
    try await second.value
    try await third.value
    // The third got a server one of the first two gave back.
    #expect(holdings.all.count == 3)
    #expect(Set(holdings.all.map(\.index)) == [0, 1])
    #expect(lease.heldCount == 0)
  }

  @Test(.holding(ServerLease(name: "trait", endpoints: ["http://only"])))
  func `the trait tells the test which server it holds`() {
    #expect(ServerLease.held == HeldServer(index: 0, endpoint: "http://only"))
  }
}
