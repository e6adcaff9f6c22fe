import ModelSession
import TestSupport
import Testing

@Suite("Cancellation wait", .timeLimit(.minutes(10))) struct CancellationWaitTests {
  @Test func `cancelling the waiting task ends the wait with CancellationError`() async throws {
    let waiting = TestSignal()
    let task = Task {
      waiting.fire()
      try await CancellationWait.untilCancelled(upTo: .seconds(600))
    }
    try await waiting.wait(upTo: .seconds(10))
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func `a wait nobody cancels ends at its deadline with Timeout, naming it`() async throws {
    do {
      try await CancellationWait.untilCancelled(upTo: .milliseconds(20))
      Issue.record("the wait returned")
    } catch let timeout as CancellationWait.Timeout {
      #expect(timeout.duration == .milliseconds(20))
      #expect(timeout.description == "the task was not cancelled within 0.02 seconds")
    }
  }
}
