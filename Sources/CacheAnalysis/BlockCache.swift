import ModelSession
import Synchronization

/// The rendered text and token count of entries and tool definitions already
/// seen, so that analyzing a growing session renders and counts each entry
/// once instead of once per generation.
///
/// Entries are looked up by id and used only when the entry is still equal to
/// the one rendered (a modifier may rewrite an entry and keep its id). The
/// cache keeps two generations of `capacity` items, like `TokenCountCache`.
final class BlockCache: Sendable {
  struct Rendered: Sendable {
    var text: String
    var tokenCount: Int
  }

  private struct Generations {
    var entries: [String: (entry: Transcript.Entry, rendered: Rendered)] = [:]
    var olderEntries: [String: (entry: Transcript.Entry, rendered: Rendered)] = [:]
    var tools: [Transcript.ToolDefinition: Rendered] = [:]
  }

  private let capacity: Int
  private let state = Mutex(Generations())

  init(capacity: Int = 50_000) {
    self.capacity = max(1, capacity)
  }

  /// The rendering of `entry`, when an equal entry with its id was rendered before.
  func rendered(_ entry: Transcript.Entry) -> Rendered? {
    state.withLock { state in
      if let found = state.entries[entry.id], found.entry == entry { return found.rendered }
      guard let found = state.olderEntries[entry.id], found.entry == entry else { return nil }
      Self.insert(found, id: entry.id, into: &state, capacity: capacity)
      return found.rendered
    }
  }

  func store(_ rendered: Rendered, for entry: Transcript.Entry) {
    state.withLock { generations in
      Self.insert((entry, rendered), id: entry.id, into: &generations, capacity: capacity)
    }
  }

  func rendered(_ definition: Transcript.ToolDefinition) -> Rendered? {
    state.withLock { $0.tools[definition] }
  }

  func store(_ rendered: Rendered, for definition: Transcript.ToolDefinition) {
    state.withLock { state in
      if state.tools.count >= capacity { state.tools.removeAll() }
      state.tools[definition] = rendered
    }
  }

  private static func insert(
    _ item: (entry: Transcript.Entry, rendered: Rendered), id: String, into state: inout Generations,
    capacity: Int
  ) {
    if state.entries.count >= capacity {
      state.olderEntries = state.entries
      state.entries = [:]
    }
    state.entries[id] = item
  }
}
