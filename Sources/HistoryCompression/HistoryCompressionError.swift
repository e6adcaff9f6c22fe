import ModelSession

/// A history modifier configured with a value it cannot work with.
///
/// Modifiers throw these from `transformHistory`, so the generation that
/// would have used them fails with a message that names the modifier and
/// the value, rather than the process crashing.
public enum HistoryCompressionError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A size of 0 or less.
  case invalidSize(modifier: String, size: HistorySize)
  /// A fraction outside the range it must be in.
  case invalidFraction(modifier: String, name: String, value: Double, range: String)
  /// A timeout of zero or less.
  case invalidTimeout(modifier: String, timeout: Duration)
  /// A budget given as a share of the model's window, when the window is not
  /// known: the model does not say it (see `ContextSizeProviding`) and has
  /// not refused a prompt with its size yet.
  case unknownContextSize(modifier: String, reason: String)
  /// The tokens reserved for the response leave no room for the history
  /// within a budget.
  case noRoomForHistory(modifier: String, budget: Int, reservedResponseTokens: Int)

  /// What is wrong, and where.
  public var description: String {
    switch self {
    case .invalidSize(let modifier, let size) where size.value > CountRange.maximum:
      "\(modifier): the size \(size) is more than \(CountRange.maximum) (2^53), the largest count ContextKit takes"
    case .invalidSize(let modifier, let size):
      "\(modifier): the size \(size) must be at least 1 (a window or threshold of nothing keeps no history)"
    case .invalidFraction(let modifier, let name, let value, let range):
      "\(modifier): \(name) is \(value), it must be in \(range)"
    case .invalidTimeout(let modifier, let timeout):
      "\(modifier): the summarizer timeout is \(timeout), it must be more than zero"
    case .unknownContextSize(let modifier, let reason):
      "\(modifier): \(reason); give the budget in tokens, or use a model that reports its window "
        + "(ChatCompletionsLanguageModel(contextSize:) for a server that does not)"
    case .noRoomForHistory(let modifier, let budget, let reserved):
      "\(modifier): the budget of \(budget) tokens leaves no room for history once \(reserved) tokens are "
        + "reserved for the response (maximumResponseTokens)"
    }
  }
}
