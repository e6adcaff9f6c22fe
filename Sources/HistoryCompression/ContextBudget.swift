/// A number of tokens of context, given outright or as a share of the
/// model's window.
///
/// A budget counts everything a generation holds in the window: the history
/// the model reads and the tokens reserved for its answer (the generation's
/// `maximumResponseTokens`). So a history kept within a budget leaves room to
/// answer: `compactingHistory(tokenBudget: .contextShare(0.8), target:
/// .contextShare(0.5))` with a window of 2,048 tokens and 200 reserved for
/// the response compacts the history when it passes 0.8 × 2,048 − 200 = 1,438
/// tokens, down to 0.5 × 2,048 − 200 = 824.
///
/// A share needs the window: the modifier asks the session's model
/// (`ContextSizeProviding`; `ChatCompletionsLanguageModel` learns it from the
/// server), or takes it from the model's refusal of an earlier prompt. When
/// neither says it, the modifier throws
/// ``HistoryCompressionError/unknownContextSize(modifier:reason:)``: a share
/// of an unknown window is never guessed.
///
/// An integer literal is a number of tokens: `tokenBudget: 12_000`.
public enum ContextBudget: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
  /// A number of tokens.
  case tokens(Int)
  /// A share of the model's window, in (0, 1].
  case contextShare(Double)

  /// A number of tokens.
  public init(integerLiteral value: Int) {
    self = .tokens(value)
  }

  /// `.tokens(12000)`, `.contextShare(0.8)`.
  public var description: String {
    switch self {
    case .tokens(let count): ".tokens(\(count))"
    case .contextShare(let share): ".contextShare(\(share))"
    }
  }

  /// Whether the budget is a share of the window.
  public var needsContextSize: Bool {
    if case .contextShare = self { return true }
    return false
  }

  /// The number of tokens, for a window of `contextSize` tokens (used by
  /// shares only).
  ///
  /// - Throws: ``HistoryCompressionError/invalidFraction(modifier:name:value:range:)``
  ///   for a share outside (0, 1], and
  ///   ``HistoryCompressionError/unknownContextSize(modifier:reason:)`` for a
  ///   share when `contextSize` is `nil`.
  public func tokenCount(
    contextSize: Int?, modifier: String, name: String
  ) throws(HistoryCompressionError) -> Int {
    switch self {
    case .tokens(let count):
      return count
    case .contextShare(let share):
      guard share > 0, share <= 1 else {
        throw .invalidFraction(modifier: modifier, name: name, value: share, range: "(0, 1]")
      }
      guard let contextSize else {
        throw .unknownContextSize(
          modifier: modifier, reason: "\(name) is \(self), and the model's context size is not known")
      }
      return Int((share * Double(contextSize)).rounded(.down))
    }
  }
}
