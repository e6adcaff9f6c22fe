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
