import ModelSession

/// A token counter that is wrong on purpose: it reports another counter's
/// counts divided by `divisor` (rounded down), as an estimate that
/// undercounts a model's tokenizer would. Tests and `contextkit demo
/// --count-half` use it to drive a session into the model's refusals.
public struct ScaledTokenCounter: TokenCounter {
  /// The counter whose counts are divided.
  public var base: any TokenCounter
  /// What every count is divided by; at least 1.
  public var divisor: Int

  /// Creates a counter that reports `base`'s counts divided by `divisor`.
  public init(_ base: any TokenCounter, dividingBy divisor: Int) {
    self.base = base
    self.divisor = max(1, divisor)
  }

  /// The segment's count, divided.
  public func tokenCount(of segment: Transcript.Segment) async throws -> Int {
    try await base.tokenCount(of: segment) / divisor
  }

  /// The entry's count, divided.
  public func tokenCount(of entry: Transcript.Entry) async throws -> Int {
    try await base.tokenCount(of: entry) / divisor
  }

  /// The definition's count, divided.
  public func tokenCount(of toolDefinition: Transcript.ToolDefinition) async throws -> Int {
    try await base.tokenCount(of: toolDefinition) / divisor
  }

  /// The request's count, divided.
  public func tokenCount(of request: LanguageModelExecutorGenerationRequest) async throws -> Int {
    try await base.tokenCount(of: request) / divisor
  }

  /// Each entry's count, divided.
  public func tokenCounts(of entries: [Transcript.Entry]) async throws -> [Int] {
    try await base.tokenCounts(of: entries).map { $0 / divisor }
  }
}
