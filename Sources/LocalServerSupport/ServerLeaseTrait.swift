import Testing

/// A trait that runs each test case of a test or suite while it holds a server
/// of a ``ServerLease``, so that no other test's conversation interleaves with its
/// own on the same local model server. The test reads which server it holds
/// from ``ServerLease/held``.
///
/// The wait for a server counts toward the test's time limit (Swift Testing
/// times the whole test case, its scope included), and has its own deadline
/// (``ServerLeaseTrait/waitDeadline``): a live suite's time limit must allow
/// for the live tests that run before it on the same servers.
public struct ServerLeaseTrait: TestTrait, SuiteTrait, TestScoping {
  /// How long a test case waits for the lease before it fails: every live test
  /// that runs before it on the same server, on a loaded machine.
  public static let waitDeadline: Duration = .seconds(20 * 60)

  /// The lease each test case holds.
  public let lease: ServerLease

  /// Applies to every test of a suite.
  public var isRecursive: Bool { true }

  /// A scope for each test case; none for a suite or a test as a whole.
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> ServerLeaseTrait? {
    testCase == nil ? nil : self
  }

  /// Runs the test case while holding the lease.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await lease.holding(within: Self.waitDeadline) { server in
      try await ServerLease.$held.withValue(server) {
        try await function()
      }
    }
  }
}

extension Trait where Self == ServerLeaseTrait {
  /// Each test case holds `lease` while it runs: one conversation at a time on that server.
  public static func holding(_ lease: ServerLease) -> Self {
    ServerLeaseTrait(lease: lease)
  }
}
