import Foundation

/// Whether `condition` holds within `limit`, checked every 10 ms.
///
/// Only for state that no event announces (a transport's count of open
/// transfers, a session's `isResponding` after its turn unwinds); a test that
/// can wait for a signal waits for the signal. A `false` answer is the test's
/// failure, so a broken cleanup fails with a message instead of hanging.
func eventually(within limit: Duration = .seconds(5), _ condition: () -> Bool) async throws -> Bool {
  let deadline = ContinuousClock.now + limit
  while !condition() {
    if ContinuousClock.now >= deadline {
      return false
    }
    try await Task.sleep(for: .milliseconds(10))
  }
  return true
}
