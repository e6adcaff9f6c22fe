/// The summaries a summarizing modifier has made, by the content of the
/// history they stand for, so that each range is summarized once.
///
/// A summary is computed once per range of history (its key names the
/// range's content and the summarizer's settings) and reused by every later
/// generation, which keeps the prefix the model sees byte-identical between
/// compactions. Two generations that need the same summary at the same time
/// share one summarizer call. A failed call is not remembered: the next
/// generation tries again.
///
/// The store keeps the newest `capacity` summaries. Profiles are often
/// rebuilt for every generation, so by default every modifier uses
/// ``shared``; give a modifier its own store to keep its summaries apart.
///
/// ```swift
/// let store = SummaryStore(capacity: 64)
/// profile.summarizeHistory(
///   threshold: .tokens(8_000), model: cheapModel, options: .init(store: store))
/// ```
public actor SummaryStore {
  /// The store modifiers use unless given another.
  public static let shared = SummaryStore()

  /// The most summaries kept.
  public let capacity: Int
  private var summaries: [Int: String] = [:]
  private var insertionOrder: [Int] = []
  private var pending: [Int: Task<String, any Error>] = [:]
  private var calls = 0

  /// Creates an empty store; a capacity below 1 is taken as 1.
  public init(capacity: Int = 256) {
    self.capacity = max(1, capacity)
  }

  /// The number of summaries kept.
  public var count: Int { summaries.count }

  /// The number of summaries computed (summarizer calls started) by this store.
  public var computedCount: Int { calls }

  /// Forgets every summary.
  public func removeAll() {
    summaries.removeAll()
    insertionOrder.removeAll()
  }

  /// The summary kept for the last of `keys` that has one, with its position in `keys`.
  func latest(among keys: [Int]) -> (index: Int, summary: String)? {
    for index in keys.indices.reversed() {
      if let summary = summaries[keys[index]] { return (index, summary) }
    }
    return nil
  }

  /// The summary for `key`: the one kept, the one being computed, or a new one from `compute`.
  func summary(for key: Int, compute: @escaping @Sendable () async throws -> String) async throws -> String {
    if let summary = summaries[key] { return summary }
    if let running = pending[key] { return try await running.value }
    calls += 1
    let task = Task { try await compute() }
    pending[key] = task
    defer { pending[key] = nil }
    let summary = try await task.value
    keep(summary, for: key)
    return summary
  }

  private func keep(_ summary: String, for key: Int) {
    if summaries.updateValue(summary, forKey: key) == nil { insertionOrder.append(key) }
    if insertionOrder.count > capacity {
      let overflow = insertionOrder.count - capacity
      for old in insertionOrder.prefix(overflow) { summaries[old] = nil }
      insertionOrder.removeFirst(overflow)
    }
  }
}
