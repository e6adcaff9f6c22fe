import Foundation
import ModelSession

/// The values every numeric field from outside is fed: the ends of `Int`,
/// negatives, fractions, the largest count and one past it, and a few
/// ordinary ones.
let countBoundaryLiterals: [(text: String, accepted: Int?)] = [
  ("0", 0), ("1", 1), ("4096", 4096), ("9007199254740992", 1 << 53),
  ("9007199254740993", nil), ("9223372036854775807", nil), ("-9223372036854775808", nil),
  ("9223372036854775808", nil), ("-1", nil), ("-5", nil), ("1.5", nil), ("-0.5", nil), ("1e400", nil),
  ("1e3", 1000), ("\"12\"", nil), ("true", nil),
]
