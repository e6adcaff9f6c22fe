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
/// The comparison is by whole prompt block: a server with a real tokenizer
/// also reuses the tokens a changed block shares at its start with the cached
/// one, so the model can under-count by at most part of one block. Token
/// counts come from ``tokenCounter``.
///
/// Typical settings: vLLM and llama.cpp reuse in blocks of 16 tokens (or 1);
/// OpenAI in steps of 128 tokens above 1,024; Anthropic an exact prefix above
/// a minimum of 1,024 tokens.
///
/// ```swift
/// let model = try PromptCacheModel(blockSize: 128, minimumCacheableTokens: 1_024)
/// let previous = try await model.cachedStream(after: records[0])
/// let match = model.match(try await model.render(PromptRequest(record: records[1])), against: [previous])
/// print(match.reusedTokenCount)
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
  private let cache = BlockCache()

  /// Creates the default model: blocks of 16 tokens (as vLLM), no minimum,
  /// the previous request only.
  public init(tokenCounter: any TokenCounter = EstimatingTokenCounter()) {
    blockSize = 16
    minimumCacheableTokens = 0
    lookback = 1
    self.tokenCounter = tokenCounter
    serverTolerance = 16
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
  }

  /// The blocks of `request`, in the order a server reads them.
  public func render(_ request: PromptRequest) async throws -> RenderedPrompt {
    var blocks: [PromptBlock] = []
    for definition in toolsInPrompt ? request.toolDefinitions : [] {
      let rendered: BlockCache.Rendered
      if let known = cache.rendered(definition) {
        rendered = known
      } else {
        rendered = BlockCache.Rendered(
          text: PromptRenderer.text(of: definition),
          tokenCount: try await tokenCounter.tokenCount(of: definition))
        cache.store(rendered, for: definition)
      }
      blocks.append(
        PromptBlock(
          location: .tool(name: definition.name), text: rendered.text, tokenCount: rendered.tokenCount))
    }
    if let settings = PromptRenderer.settingsText(of: request.contextOptions) {
      blocks.append(try await textBlock(settings, at: .settings))
    }
    if let schema = request.schema, request.contextOptions.includeSchemaInPrompt {
      blocks.append(try await textBlock(PromptRenderer.text(of: schema), at: .responseSchema))
    }
    blocks.append(contentsOf: try await entryBlocks(request.transcript.entries, startingAt: 0))
    return RenderedPrompt(blocks: blocks)
  }

  /// The blocks of transcript entries, numbered from `index`.
  public func entryBlocks(_ entries: [Transcript.Entry], startingAt index: Int) async throws -> [PromptBlock]
  {
    var blocks: [PromptBlock] = []
    blocks.reserveCapacity(entries.count)
    var fresh: [Transcript.Entry] = []
    var positions: [Int] = []
    let known = cache.rendered(entries, isRequest: index == 0)
    for (offset, (entry, rendered)) in zip(entries, known).enumerated() {
      if case .instructions(let instructions) = entry {
        // Counted without its tools: they are blocks of their own.
        let textOnly = Transcript.Instructions(
          id: instructions.id, segments: instructions.segments, toolDefinitions: [])
        blocks.append(
          PromptBlock(
            location: .instructions, text: PromptRenderer.text(of: instructions),
            tokenCount: try await tokenCounter.tokenCount(of: .instructions(textOnly))))
      } else if let rendered {
        blocks.append(
          PromptBlock(
            location: .entry(index: index + offset, kind: entry.kindName), text: rendered.text,
            tokenCount: rendered.tokenCount))
      } else {
        positions.append(blocks.count)
        blocks.append(
          PromptBlock(
            location: .entry(index: index + offset, kind: entry.kindName),
            text: PromptRenderer.text(of: entry),
            tokenCount: 0))
        fresh.append(entry)
      }
    }
    let counts = try await tokenCounter.tokenCounts(of: fresh)
    var renderings: [(entry: Transcript.Entry, rendered: BlockCache.Rendered)] = []
    renderings.reserveCapacity(fresh.count)
    for (position, (entry, count)) in zip(positions, zip(fresh, counts)) {
      blocks[position].tokenCount = count
      renderings.append((entry, BlockCache.Rendered(text: blocks[position].text, tokenCount: count)))
    }
    cache.store(renderings)
    return blocks
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
    let next = prompt.blocks.reduce(0) { count, block in
      if case .entry(let index, _) = block.location { max(count, index + 1) } else { count }
    }
    return prompt.appending(try await entryBlocks(output, startingAt: max(next, 1)))
  }

  /// The reuse of `prompt` against the cached streams, newest first (only
  /// the first ``lookback`` count).
  public func match(_ prompt: RenderedPrompt, against cached: [RenderedPrompt]) -> PrefixMatch {
    var best = PrefixMatch.none
    for (offset, stream) in cached.prefix(lookback).enumerated() {
      let shared = prompt.commonBlockCount(with: stream)
      let tokens = prompt.tokenCount(ofFirst: shared)
      if best.sourceDistance == nil || tokens > best.sharedTokenCount {
        best = PrefixMatch(
          sharedBlockCount: shared, sharedTokenCount: tokens, reusedTokenCount: reusable(tokens),
          sourceDistance: offset + 1)
      }
    }
    return best
  }

  /// The tokens a cache serves of a shared prefix of `tokens` tokens.
  public func reusable(_ tokens: Int) -> Int {
    let rounded = tokens / blockSize * blockSize
    return rounded >= minimumCacheableTokens ? rounded : 0
  }

  private func textBlock(_ text: String, at location: PromptBlock.Location) async throws -> PromptBlock {
    let count = try await tokenCounter.tokenCount(of: .text(Transcript.TextSegment(id: "", content: text)))
    return PromptBlock(location: location, text: text, tokenCount: count)
  }
}
