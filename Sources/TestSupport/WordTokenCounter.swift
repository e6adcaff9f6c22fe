import ModelSession

/// A token counter whose counts a test can compute by hand: one token per
/// whitespace-separated word of text, one per other segment, a fixed number
/// per tool call and per tool definition, and no framing around entries.
public struct WordTokenCounter: TokenCounter {
  /// The tokens one tool call takes.
  public var toolCallTokens: Int
  /// The tokens one tool definition takes.
  public var toolDefinitionTokens: Int

  /// Creates a counter with the given fixed costs.
  public init(toolCallTokens: Int = 5, toolDefinitionTokens: Int) {
    self.toolCallTokens = toolCallTokens
    self.toolDefinitionTokens = toolDefinitionTokens
  }

  /// The words of a text segment; 1 for any other segment.
  public func tokenCount(of segment: Transcript.Segment) -> Int {
    guard case .text(let text) = segment else { return 1 }
    return text.content.split(whereSeparator: \.isWhitespace).count
  }

  /// `toolCallTokens` per call of a tool-calls entry; otherwise the sum of the entry's segments.
  public func tokenCount(of entry: Transcript.Entry) -> Int {
    if case .toolCalls(let calls) = entry { return toolCallTokens * calls.calls.count }
    return entry.segments.reduce(0) { $0 + tokenCount(of: $1) }
  }

  /// `toolDefinitionTokens`, whatever the definition.
  public func tokenCount(of toolDefinition: Transcript.ToolDefinition) -> Int { toolDefinitionTokens }

  /// The sum of the request's transcript entries.
  public func tokenCount(of request: LanguageModelExecutorGenerationRequest) -> Int {
    request.transcript.reduce(0) { $0 + tokenCount(of: $1) }
  }

  /// Each entry's count, in order.
  public func tokenCounts(of entries: [Transcript.Entry]) -> [Int] { entries.map { tokenCount(of: $0) } }
}
