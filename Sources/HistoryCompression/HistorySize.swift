import ModelSession

/// An amount of history: a number of entries or a number of tokens.
///
/// Sizes count everything the model would see of the history, the
/// instructions entry (with its tool definitions) included. A size must be
/// at least 1; a modifier given a smaller one throws
/// ``HistoryCompressionError/invalidSize(modifier:size:)`` from its first
/// generation instead of crashing. Call ``validated(for:)`` to check earlier.
///
/// ```swift
/// profile.rollingWindow(.tokens(6_000))
/// profile.rollingWindow(.entries(40))
/// ```
public enum HistorySize: Sendable, Hashable, CustomStringConvertible {
  /// A number of transcript entries.
  case entries(Int)
  /// A number of tokens, as a `TokenCounter` counts them.
  case tokens(Int)

  /// The number, whatever the unit.
  public var value: Int {
    switch self {
    case .entries(let count), .tokens(let count): count
    }
  }

  /// `.entries(40)`, `.tokens(6000)`.
  public var description: String {
    switch self {
    case .entries(let count): ".entries(\(count))"
    case .tokens(let count): ".tokens(\(count))"
    }
  }

  /// `entries` or `tokens`.
  public var unitName: String {
    switch self {
    case .entries: "entries"
    case .tokens: "tokens"
    }
  }

  /// The size of the same unit with another number.
  func withValue(_ value: Int) -> HistorySize {
    switch self {
    case .entries: .entries(value)
    case .tokens: .tokens(value)
    }
  }

  /// The size itself when it is from 1 to 2^53 (`CountRange.maximum`).
  ///
  /// - Parameter modifier: the name of the modifier the size is for, used in the error.
  /// - Throws: ``HistoryCompressionError/invalidSize(modifier:size:)`` when it
  ///   is 0 or less, or more than 2^53 (sizes are multiplied by fractions,
  ///   and a size near `Int.max` would overflow).
  @discardableResult
  public func validated(for modifier: String) throws(HistoryCompressionError) -> HistorySize {
    guard value >= 1, value <= CountRange.maximum else { throw .invalidSize(modifier: modifier, size: self) }
    return self
  }
}
