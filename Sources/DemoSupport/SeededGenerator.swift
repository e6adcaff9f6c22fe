/// A small, fast, deterministic random number generator (SplitMix64): the
/// same seed gives the same numbers on every platform, so a failing seeded
/// test can be replayed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator that starts from `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }

  /// A number in `0..<bound`.
  public mutating func next(below bound: Int) -> Int {
    Int(next() % UInt64(max(1, bound)))
  }

  /// A number in `range` (modulo reduction: fine for the small ranges of tests and corpora).
  public mutating func int(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  /// `true` with probability `probability`.
  public mutating func chance(_ probability: Double) -> Bool {
    Double(next() >> 11) / Double(UInt64(1) << 53) < probability
  }

  /// One element of a non-empty array.
  public mutating func pick<Element>(_ elements: [Element]) -> Element {
    elements[int(in: 0...(elements.count - 1))]
  }
}
