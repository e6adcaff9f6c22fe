import ModelSession
import Synchronization

/// The rendered text and token count of entries and tool definitions already
/// seen, so that analyzing a growing session renders and counts each entry
/// once instead of once per generation.
///
/// Entries are looked up by id and used only when the entry is still equal to
/// the one rendered (a modifier, or an instructions skill, may rewrite an
/// entry and keep its id): the newer rendering then replaces the older one.
/// The cache holds one rendering per entry id, so its memory grows linearly
/// with the conversation, with no capacity to fall off.
final class BlockCache: Sendable {
  struct Rendered: Sendable {
    var text: String
    var tokenCount: Int
  }

  /// One rendered entry, boxed so that a lookup copies a reference, not the entry.
  private final class Item: Sendable {
    let entry: Transcript.Entry
    let rendered: Rendered

    init(entry: Transcript.Entry, rendered: Rendered) {
      self.entry = entry
      self.rendered = rendered
    }
  }

  private struct State {
    var entries: [String: Item] = [:]
    /// The entries of the latest batch looked up, by position: the next
    /// generation's history usually starts with them, so they are checked
    /// first, in order, without hashing.
    var latest: [Item?] = []
    var tools: [Transcript.ToolDefinition: Rendered] = [:]
  }

  private let state = Mutex(State())

  init() {}

  /// The rendering of each entry that was rendered before with the same id
  /// and content, `nil` for the others; one lock for the whole batch.
  ///
  /// - Parameter isRequest: whether `entries` is a whole request's history
  ///   (then its known entries, by position, are what the next request is
  ///   checked against first), not an output appended to one.
  func rendered(_ entries: [Transcript.Entry], isRequest: Bool) -> [Rendered?] {
    state.withLock { state in
      var positional: [Item?] = []
      positional.reserveCapacity(isRequest ? entries.count : 0)
      let results = entries.enumerated().map { position, entry -> Rendered? in
        let item: Item?
        if position < state.latest.count, let known = state.latest[position], known.entry == entry {
          item = known
        } else if let found = state.entries[entry.id], found.entry == entry {
          item = found
        } else {
          item = nil
        }
        if isRequest { positional.append(item) }
        return item?.rendered
      }
      if isRequest { state.latest = positional }
      return results
    }
  }

  /// Stores the renderings of entries.
  func store(_ renderings: [(entry: Transcript.Entry, rendered: Rendered)]) {
    guard !renderings.isEmpty else { return }
    state.withLock { state in
      for item in renderings {
        state.entries[item.entry.id] = Item(entry: item.entry, rendered: item.rendered)
      }
    }
  }

  func rendered(_ definition: Transcript.ToolDefinition) -> Rendered? {
    state.withLock { $0.tools[definition] }
  }

  func store(_ rendered: Rendered, for definition: Transcript.ToolDefinition) {
    state.withLock { $0.tools[definition] = rendered }
  }
}
