import Foundation
import Synchronization

/// Runs async work to completion from the harness's synchronous operations.
///
/// The harness thread waits on a semaphore while the work runs on Swift's
/// concurrency pool; fine in a benchmark process, never in library code.
enum AsyncBenchmarkRunner {
  private final class Outcome: Sendable {
    let value = Mutex<Result<Int, any Error>?>(nil)
  }

  static func run(_ work: @escaping @Sendable () async throws -> Int) throws -> Int {
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    Task {
      let result: Result<Int, any Error>
      do { result = .success(try await work()) } catch { result = .failure(error) }
      outcome.value.withLock { $0 = result }
      done.signal()
    }
    done.wait()
    return try outcome.value.withLock { value in
      guard let value else { throw CancellationError() }
      return try value.get()
    }
  }
}
