/// Counts the tokens that parts of a request take in a model's context.
///
/// History modifiers measure entries with a counter when their budget is in
/// tokens. ``EstimatingTokenCounter`` estimates from the text's length; a
/// counter backed by a model's own tokenizer can take its place.
///
/// Counting must be cheap, because modifiers measure the whole history before
/// every generation: implement ``tokenCounts(of:)`` so that it reuses what it
/// counted before (entries are identified by their `id`).
///
/// ```swift
/// let counter = EstimatingTokenCounter()
/// let total = try await counter.tokenCounts(of: transcript.entries).reduce(0, +)
/// ```
public protocol TokenCounter: Sendable {
  /// The tokens one segment takes.
  func tokenCount(of segment: Transcript.Segment) async throws -> Int

  /// The tokens one entry takes, its framing included.
  func tokenCount(of entry: Transcript.Entry) async throws -> Int

  /// The tokens a tool definition takes when offered to the model.
  func tokenCount(of toolDefinition: Transcript.ToolDefinition) async throws -> Int

  /// The tokens a whole request takes: its transcript, the tools it offers and its schema.
  func tokenCount(of request: LanguageModelExecutorGenerationRequest) async throws -> Int

  /// The tokens of each entry, in order. Implement it to reuse earlier
  /// counts or to ask in one batch; ``countingOneByOne(_:)`` counts them one by one.
  func tokenCounts(of entries: [Transcript.Entry]) async throws -> [Int]
}

extension TokenCounter {
  /// The tokens of each entry, counted one by one with `tokenCount(of:)`:
  /// the simplest implementation of `tokenCounts(of:)`.
  public func countingOneByOne(_ entries: [Transcript.Entry]) async throws -> [Int] {
    var counts: [Int] = []
    counts.reserveCapacity(entries.count)
    for entry in entries {
      counts.append(try await tokenCount(of: entry))
    }
    return counts
  }
}
