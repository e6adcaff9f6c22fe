/// A wait that only cancellation ends well: a scripted step or modifier that
/// must hold a generation until the test cancels it waits here, and a test
/// that forgets to cancel fails after the deadline instead of hanging.
///
/// ```swift
/// signal.fire()  // the test may cancel now
/// try await CancellationWait.untilCancelled(upTo: .seconds(60))
/// ```
public enum CancellationWait {
  /// Why a wait ended without cancellation.
  public struct Timeout: Error, CustomStringConvertible {
    /// How long the wait lasted.
    public let duration: Duration
    /// What went wrong, for the test's failure message.
    public var description: String { "the task was not cancelled within \(duration)" }
  }

  /// Waits until the current task is cancelled, then throws
  /// `CancellationError` (at once when it already is); throws ``Timeout``
  /// when `duration` passes first.
  public static func untilCancelled(upTo duration: Duration) async throws {
    // `Task.sleep` ends with CancellationError as soon as the task is cancelled.
    try await Task.sleep(for: duration)
    throw Timeout(duration: duration)
  }
}
