import ModelSession

/// A model of a server's prefix cache (a KV cache reused by exact prefix).
///
/// A request is rendered into blocks in the order a server reads them: the
/// tool definitions, the context settings, the response schema (when it is
/// written into the prompt), the instructions, then each transcript entry.
/// After a generation, the server's cache holds that request followed by the
/// output it produced. The next request reuses the longest run of leading
/// blocks that one of the cached streams renders the same (``lookback``
/// says how many earlier streams count: 1 for the previous request only, more
/// for a radix cache that keeps several), rounded down to whole cache blocks
/// of ``blockSize`` tokens, and only when that is at least
/// ``minimumCacheableTokens``.
///
/// Servers match tokens, not blocks: they also reuse the tokens a changed
/// block shares at its start with the cached one. At the default
/// ``granularity`` (``ReuseGranularity/token``), ``reuse(of:against:)``
/// counts them (``ChangedBlockStart``): the two blocks' common token prefix
/// when the model has a ``tokenizer``, else an estimate from their common
/// characters. ``match(_:against:)`` compares whole blocks only. Token
/// counts come from ``tokenCounter``.
///
/// Typical settings: vLLM and llama.cpp reuse in blocks of 16 tokens (or 1);
/// OpenAI in steps of 128 tokens above 1,024; Anthropic an exact prefix above
/// a minimum of 1,024 tokens.
///
/// ```swift
/// let model = try PromptCacheModel(blockSize: 128, minimumCacheableTokens: 1_024)
/// let previous = try await model.cachedStream(after: records[0])
/// let prompt = try await model.render(PromptRequest(record: records[1]))
/// let match = try await model.reuse(of: prompt, against: [previous])
/// print(match.reusedTokenCount, match.changedBlockStart?.description ?? "")
/// ```
public struct PromptCacheModel: Sendable {
  /// The tokens in one cache block: reuse is rounded down to a multiple of it.
  public let blockSize: Int
  /// The least number of tokens a cache serves; a shorter reuse counts as none.
  public let minimumCacheableTokens: Int
  /// How many earlier cached streams a request may reuse (1: the previous one only).
  public let lookback: Int
  /// What counts the tokens of each block. It must be deterministic: an
  /// entry's rendering and count are computed once and reused.
  public let tokenCounter: any TokenCounter
  /// How long the server keeps a prefix, when known (hosted caches keep one
  /// for minutes). It does not change the prediction: a report whose server
  /// reused less after a longer pause names `expired` as the cause.
  public var timeToLive: Duration?
  /// The largest difference between the predicted reuse and the server's
  /// figure that still counts as agreement; by default one cache block.
  public var serverTolerance: Int
  /// Whether the server's chat template writes the tool definitions into the
  /// prompt (most do; llama-cpp-python's generic template does not). When
  /// `false`, tools are not rendered as blocks.
  public var toolsInPrompt = true
  /// Whether ``reuse(of:against:)`` counts the unchanged start of a changed
  /// block (``ReuseGranularity/token``, the default) or whole blocks only.
  public var granularity = ReuseGranularity.token
  /// The tokenizer that gives a changed block's common token prefix with the
  /// cached block; by default the ``tokenCounter`` when it is a
  /// `TextTokenizer` (such as a server's `/tokenize`). Without one, or when
  /// it answers `nil`, the common start is estimated from the characters.
  public var tokenizer: (any TextTokenizer)?
  private let cache = BlockCache()
  private let tokenLists = TokenListCache()

  /// Creates the default model: blocks of 16 tokens (as vLLM), no minimum,
  /// the previous request only.
  public init(tokenCounter: any TokenCounter = EstimatingTokenCounter()) {
    blockSize = 16
    minimumCacheableTokens = 0
    lookback = 1
    self.tokenCounter = tokenCounter
    serverTolerance = 16
    tokenizer = tokenCounter as? any TextTokenizer
  }

  /// Creates a model.
  ///
  /// - Throws: ``CacheAnalysisError`` when `blockSize` or `lookback` is below
  ///   1, or `minimumCacheableTokens` below 0.
  public init(
    blockSize: Int, minimumCacheableTokens: Int = 0, lookback: Int = 1,
    tokenCounter: any TokenCounter = EstimatingTokenCounter()
  ) throws(CacheAnalysisError) {
    guard blockSize >= 1 else { throw .invalidBlockSize(blockSize) }
    guard minimumCacheableTokens >= 0 else { throw .invalidMinimumCacheableTokens(minimumCacheableTokens) }
    guard lookback >= 1 else { throw .invalidLookback(lookback) }
    self.blockSize = blockSize
    self.minimumCacheableTokens = minimumCacheableTokens
    self.lookback = lookback
    self.tokenCounter = tokenCounter
    serverTolerance = blockSize
    tokenizer = tokenCounter as? any TextTokenizer
  }

  /// The blocks of `request`, in the order a server reads them.
  public func render(_ request: PromptRequest) async throws -> RenderedPrompt {
    var prompt = RenderedPrompt(table: cache.table)
    let definitions = toolsInPrompt ? request.toolDefinitions : []
    prompt.reserveCapacity(adding: definitions.count + 2 + request.transcript.entries.count)
    for definition in definitions {
      let known: BlockCache.Known
      if let stored = cache.known(definition) {
        known = stored
      } else {
        let count = try await tokenCounter.tokenCount(of: definition)
        let rendering = RenderingTable.Rendering(text: PromptRenderer.text(of: definition), tokenCount: count)
        known = BlockCache.Known(rendering: cache.table.id(of: rendering), tokenCount: count)
        cache.store(known, for: definition)
      }
      prompt.append(.tool(name: definition.name), rendering: known.rendering, tokenCount: known.tokenCount)
    }
    if let settings = PromptRenderer.settingsText(of: request.contextOptions) {
      try await appendTextBlock(settings, at: .settings, to: &prompt)
    }
    if let schema = request.schema, request.contextOptions.includeSchemaInPrompt {
      try await appendTextBlock(PromptRenderer.text(of: schema), at: .responseSchema, to: &prompt)
    }
    try await appendEntryBlocks(request.transcript.entries, startingAt: 0, to: &prompt)
    return prompt
  }

  /// The blocks of transcript entries, numbered from `index`.
  public func entryBlocks(_ entries: [Transcript.Entry], startingAt index: Int) async throws -> [PromptBlock]
  {
    var prompt = RenderedPrompt(table: cache.table)
    try await appendEntryBlocks(entries, startingAt: index, to: &prompt)
    return prompt.blocks
  }

  /// Appends the blocks of transcript entries, numbered from `index`, to `prompt` (of this model's table).
  ///
  /// Entries rendered before cost a lookup and a few bytes of columns each;
  /// the others are rendered, counted in one batch, interned and remembered.
  private func appendEntryBlocks(
    _ entries: [Transcript.Entry], startingAt index: Int, to prompt: inout RenderedPrompt
  ) async throws {
    let known = cache.known(entries, isRequest: index == 0)
    let first = prompt.blockCount
    prompt.reserveCapacity(adding: entries.count)
    // Known entries first, in one synchronous pass; the others get a place now and their rendering below.
    var fresh: [Int] = []
    var instructions: [Int] = []
    for offset in entries.indices {
      if case .instructions = entries[offset] {
        instructions.append(offset)
        prompt.append(.instructions, rendering: -1, tokenCount: 0)
        continue
      }
      let place = BlockPlace(entry: entries[offset], index: index + offset)
      if known[offset].isKnown {
        prompt.append(place, rendering: known[offset].rendering, tokenCount: known[offset].tokenCount)
      } else {
        fresh.append(offset)
        prompt.append(place, rendering: -1, tokenCount: 0)
      }
    }
    for offset in instructions {
      guard case .instructions(let entry) = entries[offset] else { continue }
      // Counted without its tools: they are blocks of their own.
      let textOnly = Transcript.Instructions(id: entry.id, segments: entry.segments, toolDefinitions: [])
      let count = try await tokenCounter.tokenCount(of: .instructions(textOnly))
      let id = cache.table.id(of: .init(text: PromptRenderer.text(of: entry), tokenCount: count))
      prompt.setRendering(at: first + offset, id: id, tokenCount: count)
    }
    guard !fresh.isEmpty else { return }
    let freshEntries = fresh.map { entries[$0] }
    let counts = try await tokenCounter.tokenCounts(of: freshEntries)
    let ids = cache.table.ids(
      of: zip(freshEntries, counts).map { .init(text: PromptRenderer.text(of: $0), tokenCount: $1) })
    var stored: [BlockCache.Known] = []
    stored.reserveCapacity(fresh.count)
    for (offset, (id, count)) in zip(fresh, zip(ids, counts)) {
      prompt.setRendering(at: first + offset, id: id, tokenCount: count)
      stored.append(BlockCache.Known(rendering: id, tokenCount: count))
    }
    cache.store(freshEntries, stored)
  }

  /// What the server's cache holds after the generation of `record`: its
  /// request followed by its output. A failed or cancelled generation leaves
  /// its request (the server read it) and no output.
  public func cachedStream(after record: GenerationRecord) async throws -> RenderedPrompt {
    try await cachedStream(after: render(PromptRequest(record: record)), output: record.output)
  }

  /// `prompt` followed by the blocks of `output`.
  public func cachedStream(
    after prompt: RenderedPrompt, output: [Transcript.Entry]
  ) async throws
    -> RenderedPrompt
  {
    // A prompt this model did not render gets its texts interned in the model's table first.
    var stream =
      prompt.table === cache.table ? prompt : RenderedPrompt(blocks: prompt.blocks, table: cache.table)
    try await appendEntryBlocks(output, startingAt: max(prompt.entryIndexEnd, 1), to: &stream)
    return stream
  }

  /// The reuse of `prompt` against the cached streams, newest first (only
  /// the first ``lookback`` count), at the model's ``granularity``: the
  /// shared whole blocks, then the unchanged start of the first changed
  /// block, rounded down to ``blockSize`` together.
  ///
  /// - Throws: what the ``tokenizer`` throws (a server that fails).
  public func reuse(of prompt: RenderedPrompt, against cached: [RenderedPrompt]) async throws -> PrefixMatch {
    guard granularity == .token else { return match(prompt, against: cached) }
    var best = PrefixMatch.none
    for (offset, stream) in lookbackStreams(cached) {
      let shared = prompt.commonBlockCount(with: stream)
      var tokens = prompt.tokenCount(ofFirst: shared)
      var start: ChangedBlockStart?
      if shared < prompt.blockCount, shared < stream.blockCount {
        start = try await changedBlockStart(of: prompt, in: stream, at: shared)
        tokens = tokens.addingSaturated(start?.tokenCount ?? 0)
      }
      if Self.isBetter(tokens, than: best) {
        best = PrefixMatch(
          sharedBlockCount: shared, sharedTokenCount: tokens, reusedTokenCount: reusable(tokens),
          sourceDistance: offset + 1, changedBlockStart: start)
      }
    }
    return best
  }

  /// The start that block `index` of `prompt` shares with block `index` of `stream`, `nil` when none.
  private func changedBlockStart(
    of prompt: RenderedPrompt, in stream: RenderedPrompt, at index: Int
  ) async throws -> ChangedBlockStart? {
    let mine = prompt.rendering(at: index)
    let theirs = stream.rendering(at: index)
    let bound = min(mine.rendering.tokenCount, theirs.rendering.tokenCount)
    let bytes = Self.commonPrefixByteCount(mine.rendering.text, theirs.rendering.text)
    // Only blocks of one kind share a start: the first line of a canonical text names the block
    // (`instructions`, `prompt`, `tool search`), as a chat template's framing names the role.
    let header = mine.rendering.text.utf8.firstIndex(of: UInt8(ascii: "\n")).map {
      mine.rendering.text.utf8.distance(from: mine.rendering.text.utf8.startIndex, to: $0) + 1
    }
    guard bound > 0, let header, bytes >= header else { return nil }
    if let tokenizer,
      let left = try await tokens(of: mine, table: prompt.table, tokenizer: tokenizer),
      let right = try await tokens(of: theirs, table: stream.table, tokenizer: tokenizer)
    {
      let common = left.withUnsafeBufferPointer { left in
        right.withUnsafeBufferPointer { right in
          var count = 0
          let limit = min(left.count, right.count)
          while count < limit, left[count] == right[count] { count += 1 }
          return count
        }
      }
      guard common > 0 else { return nil }
      return ChangedBlockStart(tokenCount: min(common, bound), sharedByteCount: bytes, isEstimate: false)
    }
    // No tokenizer: the block's tokens in proportion to the bytes shared, when they share text
    // beyond the block's name (which the token counter does not count).
    guard bytes > header else { return nil }
    let total = max(1, mine.rendering.text.utf8.count - header)
    let estimate = Int(
      saturating: Double(mine.rendering.tokenCount) * Double(bytes - header) / Double(total))
    guard estimate > 0 else { return nil }
    return ChangedBlockStart(tokenCount: min(estimate, bound), sharedByteCount: bytes, isEstimate: true)
  }

  /// The tokens of a block's text, remembered by rendering id for prompts of this model's table.
  private func tokens(
    of block: (id: Int, rendering: RenderingTable.Rendering), table: RenderingTable,
    tokenizer: any TextTokenizer
  ) async throws -> [Int]? {
    let remembered = table === cache.table
    if remembered, let known = tokenLists.tokens(for: block.id) { return known }
    guard let tokens = try await tokenizer.tokens(of: block.rendering.text) else { return nil }
    if remembered { tokenLists.store(tokens, for: block.id) }
    return tokens
  }

  /// The number of UTF-8 bytes `left` and `right` share at their start.
  static func commonPrefixByteCount(_ left: String, _ right: String) -> Int {
    var left = left
    var right = right
    return left.withUTF8 { left in
      right.withUTF8 { right in
        var count = 0
        let limit = min(left.count, right.count)
        while count < limit, left[count] == right[count] { count += 1 }
        return count
      }
    }
  }

  /// The reuse of `prompt` against the cached streams, newest first (only
  /// the first ``lookback`` count), by whole prompt blocks
  /// (``ReuseGranularity/block``): a changed block counts as changed from
  /// its first token.
  public func match(_ prompt: RenderedPrompt, against cached: [RenderedPrompt]) -> PrefixMatch {
    var best = PrefixMatch.none
    for (offset, stream) in lookbackStreams(cached) {
      let shared = prompt.commonBlockCount(with: stream)
      let tokens = prompt.tokenCount(ofFirst: shared)
      if Self.isBetter(tokens, than: best) {
        best = PrefixMatch(
          sharedBlockCount: shared, sharedTokenCount: tokens, reusedTokenCount: reusable(tokens),
          sourceDistance: offset + 1)
      }
    }
    return best
  }

  /// The cached streams a request may reuse, newest first (only the first ``lookback``), each
  /// with its offset (0: the previous request).
  private func lookbackStreams(_ cached: [RenderedPrompt]) -> EnumeratedSequence<ArraySlice<RenderedPrompt>> {
    cached.prefix(lookback).enumerated()
  }

  /// Whether a stream sharing `tokens` tokens is a better source than `best`: it shares more; of
  /// two that share as much, the nearer (the one seen first) stays the source.
  private static func isBetter(_ tokens: Int, than best: PrefixMatch) -> Bool {
    best.sourceDistance == nil || tokens > best.sharedTokenCount
  }

  /// The tokens a cache serves of a shared prefix of `tokens` tokens.
  public func reusable(_ tokens: Int) -> Int {
    let rounded = tokens / blockSize * blockSize
    return rounded >= minimumCacheableTokens ? rounded : 0
  }

  private func appendTextBlock(
    _ text: String, at location: PromptBlock.Location, to prompt: inout RenderedPrompt
  ) async throws {
    let count = try await tokenCounter.tokenCount(of: .text(Transcript.TextSegment(id: "", content: text)))
    prompt.append(
      location, rendering: cache.table.id(of: .init(text: text, tokenCount: count)), tokenCount: count)
  }
}
