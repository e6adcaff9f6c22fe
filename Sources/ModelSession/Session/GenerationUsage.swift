/// Token counts of one or more generations, in the framework's shape:
/// `usage.input` for the prompt, `usage.output` for what the model produced.
///
/// Each generation's usage is what its executor last reported (usage events are
/// cumulative and replace each other); a turn's usage is the sum over the
/// generations of its tool loop, and a session's the sum over its turns.
///
/// ```swift
/// let response = try await session.respond(to: "Hello")
/// let reused = response.usage.input.cachedTokenCount
/// let fresh = response.usage.input.totalTokenCount - reused
/// let thinking = response.usage.output.reasoningTokenCount
/// ```
///
/// The same two types are what an executor sends with
/// `.updateUsage(input:output:)` (`LanguageModelExecutorGenerationChannel.InputUsage`
/// and `.OutputUsage` name them too).
public struct GenerationUsage: Sendable, Hashable {
  /// Token counts of the prompt.
  ///
  /// Servers differ in what they say about their prompt cache: some report the
  /// cached tokens (`prompt_tokens_details.cached_tokens`, llama.cpp's
  /// `timings.cache_n`), many say nothing. ``cachedTokenCount`` is 0 in both
  /// cases of "none"; ``reportedCachedTokenCount`` tells them apart, and is
  /// `nil` when the server said nothing, so that an unknown count is never
  /// taken for a cache miss.
  public struct Input: Sendable, Hashable {
    /// Every prompt token.
    public var totalTokenCount: Int
    /// The prompt tokens the server took from its cache; 0 when the server
    /// did not say (see ``reportedCachedTokenCount``).
    public var cachedTokenCount: Int {
      get { reportedCachedTokenCount ?? 0 }
      set { reportedCachedTokenCount = newValue }
    }
    /// The prompt tokens the server said it took from its cache, or `nil`
    /// when it did not say.
    public var reportedCachedTokenCount: Int?
    /// Where the server's cached count was read (the field of its answer),
    /// or `nil` when it did not say or the usage was made in code.
    public var cachedTokenSource: CachedTokenSource?

    /// Creates input usage with the cached tokens the server reported.
    public init(totalTokenCount: Int, cachedTokenCount: Int) {
      self.totalTokenCount = totalTokenCount
      self.reportedCachedTokenCount = cachedTokenCount
    }

    /// Creates input usage; `reportedCachedTokenCount` is `nil` (the default)
    /// when the server did not say how many prompt tokens it took from its
    /// cache, and `cachedTokenSource` names the field it was read from.
    public init(
      totalTokenCount: Int, reportedCachedTokenCount: Int? = nil, cachedTokenSource: CachedTokenSource? = nil
    ) {
      self.totalTokenCount = totalTokenCount
      self.reportedCachedTokenCount = reportedCachedTokenCount
      self.cachedTokenSource = reportedCachedTokenCount == nil ? nil : cachedTokenSource
    }

    /// No prompt tokens.
    public static let zero = Input(totalTokenCount: 0)
  }

  /// Token counts of the output.
  public struct Output: Sendable, Hashable {
    /// Every output token, reasoning included.
    public var totalTokenCount: Int
    /// The output tokens spent on reasoning.
    public var reasoningTokenCount: Int

    /// Creates output usage.
    public init(totalTokenCount: Int, reasoningTokenCount: Int = 0) {
      self.totalTokenCount = totalTokenCount
      self.reasoningTokenCount = reasoningTokenCount
    }

    /// No output tokens.
    public static let zero = Output(totalTokenCount: 0)
  }

  /// Token counts of the prompt.
  public var input: Input
  /// Token counts of the output.
  public var output: Output

  /// Creates usage from its two halves.
  public init(input: Input = .zero, output: Output = .zero) {
    self.input = input
    self.output = output
  }

  /// No tokens.
  public static let zero = GenerationUsage()

  /// The sum of two usages; each count saturates at `Int.max` instead of
  /// overflowing (counts come from servers: a sum must never trap).
  public static func + (lhs: GenerationUsage, rhs: GenerationUsage) -> GenerationUsage {
    GenerationUsage(
      input: lhs.input + rhs.input,
      output: Output(
        totalTokenCount: lhs.output.totalTokenCount.addingSaturated(rhs.output.totalTokenCount),
        reasoningTokenCount: lhs.output.reasoningTokenCount.addingSaturated(rhs.output.reasoningTokenCount)))
  }

  /// Adds `rhs` to `lhs`.
  public static func += (lhs: inout GenerationUsage, rhs: GenerationUsage) {
    lhs = lhs + rhs
  }
}

extension GenerationUsage.Input {
  /// The sum of two inputs. The cached count is reported when both sides
  /// report it, or when one side has no prompt tokens at all (nothing to
  /// report); otherwise part of it is unknown and the sum reports none. The
  /// source is kept when the reported counts share it. Counts saturate at
  /// `Int.max` instead of overflowing.
  public static func + (lhs: Self, rhs: Self) -> Self {
    let cached: (count: Int, source: CachedTokenSource?)? =
      switch (lhs.reportedCachedTokenCount, rhs.reportedCachedTokenCount) {
      case (let left?, let right?):
        (
          left.addingSaturated(right),
          lhs.cachedTokenSource == rhs.cachedTokenSource ? lhs.cachedTokenSource : nil
        )
      case (let left?, nil) where rhs.totalTokenCount == 0: (left, lhs.cachedTokenSource)
      case (nil, let right?) where lhs.totalTokenCount == 0: (right, rhs.cachedTokenSource)
      default: nil
      }
    return Self(
      totalTokenCount: lhs.totalTokenCount.addingSaturated(rhs.totalTokenCount),
      reportedCachedTokenCount: cached?.count, cachedTokenSource: cached?.source)
  }
}

extension GenerationUsage {
  /// Creates usage from flat counts (the spelling of ContextKit before 0.2).
  @available(*, deprecated, message: "use init(input:output:)")
  public init(
    inputTokenCount: Int = 0, cachedInputTokenCount: Int = 0, outputTokenCount: Int = 0,
    reasoningTokenCount: Int = 0
  ) {
    self.init(
      input: Input(
        totalTokenCount: inputTokenCount,
        reportedCachedTokenCount: cachedInputTokenCount > 0 ? cachedInputTokenCount : nil),
      output: Output(totalTokenCount: outputTokenCount, reasoningTokenCount: reasoningTokenCount))
  }

  /// Prompt tokens.
  @available(*, deprecated, renamed: "input.totalTokenCount")
  public var inputTokenCount: Int { input.totalTokenCount }
  /// Prompt tokens the server took from its cache.
  @available(*, deprecated, renamed: "input.cachedTokenCount")
  public var cachedInputTokenCount: Int { input.cachedTokenCount }
  /// Output tokens, reasoning included.
  @available(*, deprecated, renamed: "output.totalTokenCount")
  public var outputTokenCount: Int { output.totalTokenCount }
  /// Output tokens spent on reasoning.
  @available(*, deprecated, renamed: "output.reasoningTokenCount")
  public var reasoningTokenCount: Int { output.reasoningTokenCount }
}
