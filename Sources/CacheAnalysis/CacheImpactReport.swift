import Foundation
import ModelSession

/// The prompt-cache impact of one generation: how many of its prompt tokens a
/// server's prefix cache could reuse, where the prefix first differed from
/// what the previous generation left in the cache, and why.
///
/// ```swift
/// for await report in CacheImpactObserver(session: session).reports {
///   print("\(report.reusedTokenCount)/\(report.promptTokenCount) reused", report.cause)
/// }
/// ```
public struct CacheImpactReport: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Where the prompt first differs from the previous generation's cached stream.
  public struct Divergence: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The index of the first differing block in the rendered prompt.
    public var blockIndex: Int
    /// The part of the request that block renders.
    public var location: PromptBlock.Location
    /// The tokens before it.
    public var tokenOffset: Int

    /// Creates a divergence.
    public init(blockIndex: Int, location: PromptBlock.Location, tokenOffset: Int) {
      self.blockIndex = blockIndex
      self.location = location
      self.tokenOffset = tokenOffset
    }

    /// `block 3, instructions, after 120 tokens`.
    public var description: String { "block \(blockIndex), \(location), after \(tokenOffset) tokens" }
  }

  /// What the server reported for the generation's prompt.
  public struct ServerUsage: Sendable, Hashable, Codable {
    /// The prompt tokens the server counted.
    public var totalTokenCount: Int
    /// The prompt tokens the server said it took from its cache; `nil` when
    /// it did not say (unknown, not a miss).
    public var cachedTokenCount: Int?
    /// Where the server's cached count was read (the field of its answer), when known.
    public var cachedTokenSource: CachedTokenSource?

    /// Creates server usage.
    public init(totalTokenCount: Int, cachedTokenCount: Int?, cachedTokenSource: CachedTokenSource? = nil) {
      self.totalTokenCount = totalTokenCount
      self.cachedTokenCount = cachedTokenCount
      self.cachedTokenSource = cachedTokenCount == nil ? nil : cachedTokenSource
    }
  }

  /// The request the generation sent.
  public var requestID: UUID
  /// The position of the generation in the analyzed sequence, from 0.
  public var generationIndex: Int
  /// The turn's index in the session.
  public var turnIndex: Int
  /// The generation's round in the turn's tool loop.
  public var round: Int
  /// The prompt's tokens, as the model's counter counts them.
  public var promptTokenCount: Int
  /// The prompt tokens a cache could serve.
  public var reusedTokenCount: Int
  /// The prompt tokens the server processes again: `promptTokenCount - reusedTokenCount`.
  public var reprocessedTokenCount: Int
  /// The full match before block rounding and the minimum length.
  public var match: PrefixMatch
  /// Where the prompt first differs from the previous generation's cached
  /// stream; `nil` when it extends it.
  public var divergence: Divergence?
  /// Why the prefix diverged, or `appendOnly`, or `coldStart`.
  public var cause: CacheImpactCause
  /// What the server reported, when the record carries usage (a prompt count above 0).
  public var serverUsage: ServerUsage?
  /// The prediction next to the server's cached tokens, when the server
  /// reported them; `nil` when it did not (unknown is not a miss).
  public var serverComparison: ServerReuseComparison?
  /// Whether the generation completed; a failed or cancelled one still
  /// filled the cache with its prompt, but produced no output.
  public var completed: Bool

  /// Creates a report.
  public init(
    requestID: UUID, generationIndex: Int, turnIndex: Int, round: Int, promptTokenCount: Int,
    match: PrefixMatch, divergence: Divergence?, cause: CacheImpactCause, serverUsage: ServerUsage?,
    serverComparison: ServerReuseComparison? = nil, completed: Bool = true
  ) {
    self.requestID = requestID
    self.generationIndex = generationIndex
    self.turnIndex = turnIndex
    self.round = round
    self.promptTokenCount = promptTokenCount
    self.reusedTokenCount = match.reusedTokenCount
    self.reprocessedTokenCount = promptTokenCount.subtractingSaturated(match.reusedTokenCount)
    self.match = match
    self.divergence = divergence
    self.cause = cause
    self.serverUsage = serverUsage
    self.serverComparison = serverComparison
    self.completed = completed
  }

  /// The share of the prompt reused, from 0 to 1 (0 for an empty prompt).
  public var hitRatio: Double {
    promptTokenCount > 0 ? Double(reusedTokenCount) / Double(promptTokenCount) : 0
  }

  /// One line: `#3 turn 1.0: 812/900 reused (90%), diverged at …: cause [server: 800/910 cached, …]`.
  public var description: String {
    var line =
      "#\(generationIndex) turn \(turnIndex).\(round): \(reusedTokenCount)/\(promptTokenCount) reused "
      + "(\(Int(saturating: (hitRatio * 100).rounded()))%)"
    if let divergence {
      line += ", diverged at \(divergence)"
      if let start = match.changedBlockStart { line += " (its first \(start) unchanged)" }
    }
    line += ": \(cause)"
    if !completed { line += " (the generation did not complete)" }
    if let serverUsage {
      let cached = serverUsage.cachedTokenCount.map(String.init) ?? "unknown"
      line += " [server: \(cached)/\(serverUsage.totalTokenCount) cached"
      if let serverComparison, serverComparison.cause != .agrees {
        line += ", \(serverComparison.difference) vs predicted: \(serverComparison.cause.rawValue)"
      }
      line += "]"
    }
    return line
  }
}
