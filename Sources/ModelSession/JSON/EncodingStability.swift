import Foundation

/// A check for a provider's tests: the same request must encode to the same
/// bytes every time, or the server's prompt cache misses on every request.
///
/// A `Dictionary` lays out its keys by a hash seed that, on Linux, follows the
/// address of its storage; so an encoding that depends on a dictionary's order
/// (a plain `JSONEncoder`, or an `encode(to:)` that walks a dictionary) can
/// give a different order from one encode to the next. The check encodes
/// several times and, between encodes, keeps a few allocations of every small
/// size alive, so that each encode's dictionaries land at other addresses.
///
/// ```swift
/// @Test func `the request body is byte-stable`() throws {
///   try EncodingStability.check {
///     try StableJSONEncoder().encode(MyRequest(transcript: transcript, schema: schema))
///   }
/// }
/// ```
///
/// A hash seed also differs from one process to the next: compare the body
/// with one written down by hand as well (a pure test of the request
/// translation), which a hash-ordered encoding fails in most runs.
public enum EncodingStability {
  /// Encodes `repetitions` times and throws when any encode differs from the first.
  ///
  /// - Parameters:
  ///   - repetitions: How many times to encode; at least 2.
  ///   - encode: Encodes the request to check.
  /// - Throws: `EncodingStabilityError` naming the encode that differed and its
  ///   first differing byte; any error `encode` throws.
  public static func check(repetitions: Int = 24, _ encode: () throws -> Data) throws {
    let first = try encode()
    var spacers: [[UInt8]] = []
    for repetition in 2...max(2, repetitions) {
      // Occupy one more block of each small size, so that the next encode's
      // allocations (and its dictionaries' hash seeds) move.
      for size in stride(from: 8, through: 1_024, by: 8) {
        spacers.append([UInt8](repeating: UInt8(truncatingIfNeeded: repetition), count: size))
      }
      let again = try encode()
      if again != first {
        throw EncodingStabilityError(first: first, differing: again, repetition: repetition)
      }
    }
    withExtendedLifetime(spacers) {}
  }
}

/// Two encodes of the same request gave different bytes.
public struct EncodingStabilityError: Error, Sendable, CustomStringConvertible {
  /// The bytes of the first encode.
  public let first: Data
  /// The bytes of the encode that differed.
  public let differing: Data
  /// Which encode differed (the first is 1).
  public let repetition: Int
  /// The offset of the first byte that differs (the shorter length when one is a prefix of the other).
  public let offset: Int

  /// Records the two encodes and finds where they part.
  ///
  /// - Parameters:
  ///   - first: The bytes of the first encode.
  ///   - differing: The bytes of the encode that differed.
  ///   - repetition: Which encode differed (the first is 1).
  public init(first: Data, differing: Data, repetition: Int) {
    self.first = first
    self.differing = differing
    self.repetition = repetition
    let shorter = min(first.count, differing.count)
    offset =
      (0..<shorter).first { first[first.startIndex + $0] != differing[differing.startIndex + $0] } ?? shorter
  }

  /// Where the encodes part, with up to 40 bytes of each from there.
  public var description: String {
    "encode \(repetition) differs from encode 1 at byte \(offset): "
      + "\(Self.excerpt(first, from: offset)) against \(Self.excerpt(differing, from: offset))"
  }

  private static func excerpt(_ data: Data, from offset: Int) -> String {
    let bytes = [UInt8](data)
    let start = min(max(0, offset - 10), bytes.count)
    let end = min(bytes.count, offset + 30)
    return "\"…" + String(decoding: bytes[start..<end], as: UTF8.self) + (end < bytes.count ? "…\"" : "\"")
  }
}
