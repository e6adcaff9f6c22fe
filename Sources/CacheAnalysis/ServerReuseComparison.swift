import ModelSession

/// One generation's predicted prefix reuse next to what the server reported,
/// and, when they differ by more than the tolerance, the likely cause.
///
/// The prediction is what a cache *could* reuse. A server that reports fewer
/// cached tokens lost the prefix (evicted it, let it expire, or ran the
/// request on another slot or replica) or renders the prompt differently; one
/// that reports more keeps several prefixes, or reused more of the start of
/// a changed block than the model counted.
///
/// ```swift
/// if let comparison = report.serverComparison, comparison.cause != .agrees {
///   print("#\(report.generationIndex): \(comparison)")
/// }
/// ```
public struct ServerReuseComparison: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Why the server's figure differs from the prediction.
  public enum Cause: String, Sendable, Hashable, Codable, CaseIterable {
    /// Within the tolerance: the server reused what the model predicted.
    case agrees
    /// The server counts the prompt differently (its tokenizer or chat
    /// template adds tokens the token counter does not), and that accounts
    /// for the difference.
    case countingDifference
    /// The server reused less, and more time passed since the previous
    /// generation than the cache keeps a prefix (``PromptCacheModel/timeToLive``).
    case expired
    /// The server reused (almost) nothing of a prefix it could have reused:
    /// the prefix was evicted, or the request ran on another slot or replica.
    case cacheCleared
    /// The server reused part of the predicted prefix: part of it was evicted,
    /// or the chat template renders an earlier entry differently from the
    /// prediction (for instance it drops earlier reasoning).
    case shorterPrefix
    /// The server reused more, within the first block the model counts as
    /// changed: the changed block starts with more of the cached tokens than
    /// the prediction counted (an estimate without a tokenizer, a tokenizer
    /// other than the server's, or ``ReuseGranularity/block``).
    case sharedBlockStart
    /// The server reused more than the previous request shares: it keeps
    /// several prefixes (a radix cache; raise ``PromptCacheModel/lookback``).
    case severalPrefixes
  }

  /// The prompt tokens the model predicted a cache reuses.
  public var predictedTokenCount: Int
  /// The prompt tokens the server said it took from its cache.
  public var reportedTokenCount: Int
  /// The prompt's tokens as the model counts them.
  public var predictedPromptTokenCount: Int
  /// The prompt's tokens as the server counts them.
  public var reportedPromptTokenCount: Int
  /// The largest difference that still counts as agreement.
  public var tolerance: Int
  /// Why they differ, or `agrees`.
  public var cause: Cause

  /// Creates a comparison.
  public init(
    predictedTokenCount: Int, reportedTokenCount: Int, predictedPromptTokenCount: Int,
    reportedPromptTokenCount: Int, tolerance: Int, cause: Cause
  ) {
    self.predictedTokenCount = predictedTokenCount
    self.reportedTokenCount = reportedTokenCount
    self.predictedPromptTokenCount = predictedPromptTokenCount
    self.reportedPromptTokenCount = reportedPromptTokenCount
    self.tolerance = tolerance
    self.cause = cause
  }

  /// The server's figure minus the prediction: negative when the server reused less.
  public var difference: Int { reportedTokenCount.subtractingSaturated(predictedTokenCount) }

  /// `reported 812, predicted 900 (-88): cacheCleared`.
  public var description: String {
    let sign = difference > 0 ? "+" : ""
    return
      "reported \(reportedTokenCount), predicted \(predictedTokenCount) (\(sign)\(difference)): \(cause.rawValue)"
  }

  /// What the cause means, in a sentence, for tables and logs.
  public var explanation: String {
    switch cause {
    case .agrees:
      "the server reused what the model predicted"
    case .countingDifference:
      "the server counts \(reportedPromptTokenCount) prompt tokens where the model counts "
        + "\(predictedPromptTokenCount): count with the server's tokenizer and template"
    case .expired:
      "more time passed since the previous generation than the cache keeps a prefix"
    case .cacheCleared:
      "the server no longer held the prefix: evicted, or the request ran on another slot or replica"
    case .shorterPrefix:
      "the server matched a shorter prefix: part was evicted, or its template renders an earlier entry "
        + "differently"
    case .sharedBlockStart:
      "the server reused more of the changed block than the predicted unchanged start: "
        + "count with the server's tokenizer"
    case .severalPrefixes:
      "the server keeps several prefixes (a radix cache): raise the model's lookback"
    }
  }

  /// What the comparison is made from, for ``compare(_:)``.
  public struct Inputs: Sendable, Hashable {
    /// The predicted reuse.
    public var predictedTokenCount: Int
    /// The server's cached tokens.
    public var reportedTokenCount: Int
    /// The prompt's tokens as the model counts them.
    public var predictedPromptTokenCount: Int
    /// The prompt's tokens as the server counts them.
    public var reportedPromptTokenCount: Int
    /// The tokens before the first block that differs from the previous
    /// cached stream; `nil` when the prompt extends it.
    public var divergenceTokenOffset: Int?
    /// The tokens of that first differing block (0 when there is none).
    public var divergingBlockTokenCount: Int
    /// Seconds since the previous generation started; `nil` for the first.
    public var secondsSincePrevious: Double?
    /// How long the server keeps a prefix, in seconds; `nil` when unknown.
    public var timeToLive: Double?
    /// The largest difference that counts as agreement.
    public var tolerance: Int

    /// Creates inputs.
    public init(
      predictedTokenCount: Int, reportedTokenCount: Int, predictedPromptTokenCount: Int,
      reportedPromptTokenCount: Int, divergenceTokenOffset: Int? = nil, divergingBlockTokenCount: Int = 0,
      secondsSincePrevious: Double? = nil, timeToLive: Double? = nil, tolerance: Int
    ) {
      self.predictedTokenCount = predictedTokenCount
      self.reportedTokenCount = reportedTokenCount
      self.predictedPromptTokenCount = predictedPromptTokenCount
      self.reportedPromptTokenCount = reportedPromptTokenCount
      self.divergenceTokenOffset = divergenceTokenOffset
      self.divergingBlockTokenCount = divergingBlockTokenCount
      self.secondsSincePrevious = secondsSincePrevious
      self.timeToLive = timeToLive
      self.tolerance = tolerance
    }
  }

  /// Compares a prediction with the server's figure and names the cause of a difference.
  ///
  /// In order: within the tolerance is `agrees`; a difference that the two
  /// prompt sizes explain (same sign, no larger than the size difference plus
  /// the tolerance) is `countingDifference`. Less reused: `expired` when the
  /// time since the previous generation exceeds the time to live,
  /// `cacheCleared` when the server reused no more than the tolerance,
  /// `shorterPrefix` otherwise. More reused: `sharedBlockStart` when it stays
  /// within the first changed block, `severalPrefixes` otherwise.
  public static func compare(_ inputs: Inputs) -> ServerReuseComparison {
    // Saturating: the reported counts come from a server or a records file, and a trap is a crash.
    let difference = inputs.reportedTokenCount.subtractingSaturated(inputs.predictedTokenCount)
    let sizeDifference = inputs.reportedPromptTokenCount.subtractingSaturated(
      inputs.predictedPromptTokenCount)
    let cause: Cause
    if difference.saturatedMagnitude <= inputs.tolerance {
      cause = .agrees
    } else if difference.signum() == sizeDifference.signum(),
      difference.saturatedMagnitude <= sizeDifference.saturatedMagnitude.addingSaturated(inputs.tolerance)
    {
      cause = .countingDifference
    } else if difference < 0 {
      if let elapsed = inputs.secondsSincePrevious, let timeToLive = inputs.timeToLive, elapsed > timeToLive {
        cause = .expired
      } else if inputs.reportedTokenCount <= inputs.tolerance {
        cause = .cacheCleared
      } else {
        cause = .shorterPrefix
      }
    } else if let offset = inputs.divergenceTokenOffset,
      inputs.reportedTokenCount
        <= offset.addingSaturated(inputs.divergingBlockTokenCount).addingSaturated(inputs.tolerance)
    {
      cause = .sharedBlockStart
    } else {
      cause = .severalPrefixes
    }
    return ServerReuseComparison(
      predictedTokenCount: inputs.predictedTokenCount, reportedTokenCount: inputs.reportedTokenCount,
      predictedPromptTokenCount: inputs.predictedPromptTokenCount,
      reportedPromptTokenCount: inputs.reportedPromptTokenCount, tolerance: inputs.tolerance, cause: cause)
  }
}
