/// A test waited longer than its deadline for a local model server's lease.
public struct ServerLeaseTimeout: Error, CustomStringConvertible, Sendable {
  /// The server, as its environment variable names it.
  public let server: String
  /// How long the test waited.
  public let deadline: Duration

  /// A timeout for `server` after `deadline`.
  public init(server: String, deadline: Duration) {
    self.server = server
    self.deadline = deadline
  }

  /// Which server, how long, and why.
  public var description: String {
    "waited \(deadline) for the local model server of \(server): the tests before it held it longer"
  }
}
