/// The server of a ``ServerLease`` that a test holds.
public struct HeldServer: Sendable, Equatable {
  /// Its place among the lease's servers.
  public let index: Int
  /// Its URL, as the lease's environment variable names it; `nil` when the variable is unset.
  public let endpoint: String?

  /// The server at `index`, reached at `endpoint`.
  public init(index: Int, endpoint: String?) {
    self.index = index
    self.endpoint = endpoint
  }
}
