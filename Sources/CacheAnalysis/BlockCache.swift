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

  private struct State {
    /// Every entry rendered, the latest with each id, and what is known of it; `storedIndex` finds
    /// an id's position. Kept in arrays (the dictionary holds positions only) so that its slack
    /// costs 8 bytes per slot, not a whole entry.
    var storedIndex: [String: Int] = [:]
    var storedEntries: [Transcript.Entry] = []
    var storedKnown: [Known] = []
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
      let positional = min(entries.count, state.latestEntries.count)
      var results: [Known] = []
      results.reserveCapacity(entries.count)
      for position in entries.indices {
        if position < positional, state.latestKnown[position].isKnown,
          state.latestEntries[position] == entries[position]
        {
          results.append(state.latestKnown[position])
        } else if let stored = state.storedIndex[entries[position].id],
          state.storedEntries[stored] == entries[position]
        {
          results.append(state.storedKnown[stored])
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
        if let position = state.storedIndex[entry.id] {
          state.storedEntries[position] = entry
          state.storedKnown[position] = known
        } else {
          state.storedIndex[entry.id] = state.storedEntries.count
          state.storedEntries.append(entry)
          state.storedKnown.append(known)
        }
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
