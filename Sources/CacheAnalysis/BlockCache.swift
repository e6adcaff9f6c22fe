import ModelSession
import Synchronization

/// The renderings of entries and tool definitions already seen, so that
/// analyzing a growing session renders and counts each entry once instead of
/// once per generation.
///
/// Renderings are interned in ``table``; the cache maps entries to their
/// rendering ids. Entries are looked up by id and used only when the entry is
/// still equal to the one rendered (a modifier, or an instructions skill, may
/// rewrite an entry and keep its id): the newer rendering then replaces the
/// older one. The cache holds one rendering per entry id, so its memory grows
/// linearly with the conversation, with no capacity to fall off.
final class BlockCache: Sendable {
  /// A rendering id in ``table`` and its token count, or ``unknown``.
  struct Known: Sendable {
    var rendering: Int
    var tokenCount: Int

    static let unknown = Known(rendering: -1, tokenCount: 0)

    var isKnown: Bool { rendering >= 0 }
  }

  private struct Stored {
    let entry: Transcript.Entry
    let known: Known
  }

  private struct State {
    var entries: [String: Stored] = [:]
    /// The entries of the latest request looked up, and what was known of each
    /// then: the next request's history usually starts with them, so they are
    /// checked first, by position, without hashing.
    var latestEntries: [Transcript.Entry] = []
    var latestKnown: [Known] = []
    var tools: [Transcript.ToolDefinition: Known] = [:]
  }

  /// Where the renderings are interned.
  let table = RenderingTable()
  private let state = Mutex(State())

  init() {}

  /// What is known of each entry that was rendered before with the same id
  /// and content, ``Known/unknown`` for the others; one lock for the whole batch.
  ///
  /// - Parameter isRequest: whether `entries` is a whole request's history
  ///   (then its entries, by position, are what the next request is checked
  ///   against first), not an output appended to one.
  func known(_ entries: [Transcript.Entry], isRequest: Bool) -> [Known] {
    state.withLock { state in
      let latestEntries = state.latestEntries
      let latestKnown = state.latestKnown
      let positional = min(entries.count, latestEntries.count)
      var results: [Known] = []
      results.reserveCapacity(entries.count)
      for position in entries.indices {
        if position < positional, latestKnown[position].isKnown, latestEntries[position] == entries[position]
        {
          results.append(latestKnown[position])
        } else if let stored = state.entries[entries[position].id], stored.entry == entries[position] {
          results.append(stored.known)
        } else {
          results.append(.unknown)
        }
      }
      if isRequest {
        state.latestEntries = entries
        state.latestKnown = results
      }
      return results
    }
  }

  /// Stores the renderings of entries.
  func store(_ entries: [Transcript.Entry], _ known: [Known]) {
    guard !entries.isEmpty else { return }
    state.withLock { state in
      for (entry, known) in zip(entries, known) {
        state.entries[entry.id] = Stored(entry: entry, known: known)
      }
    }
  }

  /// What is known of a tool definition rendered before.
  func known(_ definition: Transcript.ToolDefinition) -> Known? {
    state.withLock { $0.tools[definition] }
  }

  /// Stores the rendering of a tool definition.
  func store(_ known: Known, for definition: Transcript.ToolDefinition) {
    state.withLock { $0.tools[definition] = known }
  }
}
