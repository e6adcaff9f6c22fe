/// Whether `stream` yields an element within `limit`. An element, the end of
/// the stream or the limit ends the wait; only an element answers `true`.
///
/// For a test that waits for a stream to start: a stream that never yields
/// fails the test with a message instead of hanging it.
func firstElementArrives(_ stream: AsyncStream<Void>, within limit: Duration) async -> Bool {
  await withTaskGroup(of: Bool.self) { group in
    group.addTask {
      for await _ in stream { return true }
      return false
    }
    group.addTask {
      try? await Task.sleep(for: limit)
      return false
    }
    let first = await group.next() ?? false
    group.cancelAll()
    return first
  }
}

/// The task's value, or `nil` when it is not done within `limit`; the task is
/// then cancelled (and waited for, so it must end on cancellation).
func value<Value: Sendable>(of task: Task<Value, any Error>, within limit: Duration) async throws -> Value? {
  try await withThrowingTaskGroup(of: Value?.self) { group in
    group.addTask { try await task.value }
    group.addTask {
      try? await Task.sleep(for: limit)
      return nil
    }
    let first = try await group.next() ?? nil
    if first == nil { task.cancel() }
    group.cancelAll()
    return first
  }
}
