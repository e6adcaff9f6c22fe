/// What one generation sends, as the canonical sequence of blocks a server's
/// prompt cache compares, with token counts.
///
/// ```swift
/// let prompt = try await model.render(PromptRequest(record: record))
/// print(prompt.tokenCount, prompt.blocks.map(\.location))
/// ```
public struct RenderedPrompt: Sendable, Hashable, Codable {
  /// The blocks, in the order a server reads them.
  public var blocks: [PromptBlock]

  /// Creates a rendered prompt from blocks.
  public init(blocks: [PromptBlock]) {
    self.blocks = blocks
  }

  /// The tokens of every block.
  public var tokenCount: Int { blocks.reduce(0) { $0 + $1.tokenCount } }

  /// The prompt followed by more blocks (such as the output the generation
  /// produced): what a server's cache holds after the generation.
  public func appending(_ more: [PromptBlock]) -> RenderedPrompt {
    RenderedPrompt(blocks: blocks + more)
  }

  /// The number of leading blocks the two prompts render the same.
  public func commonBlockCount(with other: RenderedPrompt) -> Int {
    var count = 0
    while count < blocks.count, count < other.blocks.count, blocks[count].rendersSame(as: other.blocks[count])
    {
      count += 1
    }
    return count
  }

  /// The tokens of the first `blockCount` blocks.
  public func tokenCount(ofFirst blockCount: Int) -> Int {
    blocks.prefix(blockCount).reduce(0) { $0 + $1.tokenCount }
  }
}
