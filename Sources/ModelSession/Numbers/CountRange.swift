/// The range of a count that comes from outside the process: a token count
/// in a records file or a server's answer, a number in a server's log, a
/// command-line option.
///
/// Swift traps on integer overflow, and a trap ends the process. So every
/// count read from outside is checked where it enters: it must be a whole
/// number from 0 to ``maximum`` (2^53, the largest whole number a JSON
/// number keeps exactly as a double). A count outside the range is a typed
/// error that names the field and what was found; sums of counts inside the
/// range cannot overflow before 1,024 of them are added, and the longer sums
/// (a session's usage, a report's totals) saturate at `Int.max` instead of
/// trapping.
///
/// ```swift
/// let tokens = try container.decodeCount(forKey: .promptTokens)  // 0 … 2^53
/// ```
public enum CountRange {
  /// The largest count accepted from outside: 2^53 (9,007,199,254,740,992).
  public static let maximum = 1 << 53

  /// Whether `value` is a count: from 0 to ``maximum``.
  public static func contains(_ value: Int) -> Bool {
    value >= 0 && value <= maximum
  }

  /// `a whole number from 0 to 9007199254740992`: what a count must be, for messages.
  public static let requirement = "a whole number from 0 to \(maximum)"

  /// Reads a count written in decimal digits (`"42"`), or `nil` when the text
  /// is not one: signs, fractions, exponents and values past ``maximum`` are
  /// not counts.
  public static func parse(_ text: some StringProtocol) -> Int? {
    guard !text.isEmpty, text.utf8.count <= 16, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let value = Int(text), contains(value)
    else { return nil }
    return value
  }
}

extension Int {
  /// `self + other`, or `Int.max` / `Int.min` where the sum would overflow.
  package func addingSaturated(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    guard overflow else { return sum }
    return other > 0 ? .max : .min
  }

  /// `self - other`, or `Int.max` / `Int.min` where the difference would overflow.
  package func subtractingSaturated(_ other: Int) -> Int {
    let (difference, overflow) = subtractingReportingOverflow(other)
    guard overflow else { return difference }
    return other < 0 ? .max : .min
  }

  /// `self * other`, or `Int.max` / `Int.min` where the product would overflow.
  package func multipliedSaturated(by other: Int) -> Int {
    let (product, overflow) = multipliedReportingOverflow(by: other)
    guard overflow else { return product }
    return (self < 0) == (other < 0) ? .max : .min
  }

  /// The distance from 0, `Int.max` for `Int.min` (whose `abs` traps).
  package var saturatedMagnitude: Int {
    self == .min ? .max : Swift.abs(self)
  }
}

extension Sequence<Int> {
  /// The sum of the elements, saturating at `Int.max` / `Int.min` instead of trapping.
  package func saturatedSum() -> Int {
    reduce(0) { $0.addingSaturated($1) }
  }
}

extension Int {
  /// `value` rounded toward zero, `Int.max` / `Int.min` past the ends and 0
  /// for NaN: a conversion from `Double` that never traps (`Int(_:)` does).
  package init(saturating value: Double) {
    if value.isNaN {
      self = 0
    } else if value >= 0x1p63 {
      self = .max
    } else if value <= -0x1p63 {
      self = .min
    } else {
      self = Int(value)
    }
  }
}

extension Int {
  /// Adds `other`, saturating at `Int.max` / `Int.min` instead of trapping.
  package mutating func addSaturated(_ other: Int) {
    self = addingSaturated(other)
  }
}
