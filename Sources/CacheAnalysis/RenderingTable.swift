import Synchronization

/// The distinct renderings (canonical text and token count) a model has
/// produced, each under a small integer id, so that prompts hold and compare
/// ids instead of strings.
///
/// Ids are interned: the table gives one id to each distinct pair of text and
/// token count, so two blocks of prompts from the same table render the same
/// exactly when their ids are equal. The table only grows (by the number of
/// distinct renderings, linearly with the conversations analyzed).
final class RenderingTable: Sendable {
  /// One rendering: a block's text and the tokens it takes.
  struct Rendering: Sendable, Hashable {
    var text: String
    var tokenCount: Int
  }

  private struct State {
    var renderings: [Rendering] = []
    var ids: [Rendering: Int] = [:]
  }

  private let state = Mutex(State())

  init() {}

  /// The id of each rendering, new ids for the ones not seen before; one lock for the whole batch.
  func ids(of renderings: [Rendering]) -> [Int] {
    guard !renderings.isEmpty else { return [] }
    return state.withLock { state in
      renderings.map { rendering in
        if let id = state.ids[rendering] { return id }
        let id = state.renderings.count
        state.renderings.append(rendering)
        state.ids[rendering] = id
        return id
      }
    }
  }

  /// The id of one rendering.
  func id(of rendering: Rendering) -> Int {
    ids(of: [rendering])[0]
  }

  /// The renderings with these ids (ids this table gave out).
  func renderings(_ ids: [Int]) -> [Rendering] {
    state.withLock { state in ids.map { state.renderings[$0] } }
  }
}
