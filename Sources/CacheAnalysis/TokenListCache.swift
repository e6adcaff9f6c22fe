import Synchronization

/// The tokens of the block texts a ``PromptCacheModel`` asked its tokenizer
/// for, by rendering id, so that a text is tokenized once (a server's
/// `/tokenize` is a request). Only blocks where a prompt first differs from
/// a cached stream are tokenized, so the cache stays small.
final class TokenListCache: Sendable {
  private let lists = Mutex<[Int: [Int]]>([:])

  init() {}

  /// The tokens remembered for rendering `id`.
  func tokens(for id: Int) -> [Int]? {
    lists.withLock { $0[id] }
  }

  /// Remembers the tokens of rendering `id`.
  func store(_ tokens: [Int], for id: Int) {
    lists.withLock { $0[id] = tokens }
  }
}
