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
    }
  }
}
