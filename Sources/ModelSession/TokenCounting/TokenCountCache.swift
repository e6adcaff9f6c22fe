import Synchronization

/// Token counts of transcript entries, remembered by entry id, so that a
/// growing transcript is not recounted from the start before each generation.
///
/// The cache is bounded: it keeps two generations of counts and, when the
/// newer one holds `capacity` ids, drops the older one. An id looked up again
/// moves to the newer generation, so the entries of a live conversation stay.
/// Entries are identified by `id` alone: an entry whose content changes must
/// get a new id (instructions entries are never cached for that reason).
public final class TokenCountCache: Sendable {
  private struct State {
    var current: [String: Int] = [:]
    var previous: [String: Int] = [:]
  }

  /// How many ids one generation holds before the older generation is dropped.
  public let capacity: Int
  private let state = Mutex(State())

  /// Creates an empty cache; `capacity` below 1 is taken as 1.
  public init(capacity: Int = 100_000) {
    self.capacity = max(1, capacity)
  }

  /// The number of ids remembered; an id counts once, in whichever generation holds it.
  public var count: Int {
    state.withLock { $0.current.count + $0.previous.count }
  }

  /// The counts remembered for `ids`, in order; `nil` for an id not remembered.
  public func counts(for ids: [String]) -> [Int?] {
    state.withLock { state in
      var found: [Int?] = []
      found.reserveCapacity(ids.count)
      for id in ids {
        if let count = state.current[id] {
          found.append(count)
        } else if let count = state.previous[id] {
          found.append(count)
          Self.insert(id, count, into: &state, capacity: capacity)
        } else {
          found.append(nil)
        }
      }
      return found
    }
  }

  /// Remembers counts by id.
  public func store(_ counts: [(id: String, count: Int)]) {
    guard !counts.isEmpty else { return }
    state.withLock { state in
      for (id, count) in counts {
        Self.insert(id, count, into: &state, capacity: capacity)
      }
    }
  }

  /// Forgets every count.
  public func removeAll() {
    state.withLock { $0 = State() }
  }

  private static func insert(_ id: String, _ count: Int, into state: inout State, capacity: Int) {
    // An id moves from the older generation to the newer one: it is remembered once.
    state.previous[id] = nil
    if state.current.count >= capacity {
      state.previous = state.current
      state.current = [:]
    }
    state.current[id] = count
  }
}
