import Foundation

extension KeyedDecodingContainer {
  /// Decodes a count (see ``CountRange``): a whole JSON number from 0 to
  /// 2^53. Anything else is a `DecodingError.dataCorrupted` at the key whose
  /// description says what was found: `-5`, `1.5`, `9223372036854775807`,
  /// a string.
  package func decodeCount(forKey key: Key) throws -> Int {
    if let value = try? decode(Int.self, forKey: key) {
      guard CountRange.contains(value) else {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: self, debugDescription: "\(value) is not \(CountRange.requirement)")
      }
      return value
    }
    if let number = try? decode(Double.self, forKey: key) {
      let shown =
        number.rounded() == number && number.magnitude < 1e21 ? String(format: "%.0f", number) : "\(number)"
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self, debugDescription: "\(shown) is not \(CountRange.requirement)")
    }
    // Not a number: a missing key or a null is the decoder's to report, anything else is named.
    guard contains(key), try !decodeNil(forKey: key) else { return try decode(Int.self, forKey: key) }
    let found =
      if (try? decode(String.self, forKey: key)) != nil {
        "a string"
      } else if (try? decode(Bool.self, forKey: key)) != nil {
        "a boolean"
      } else {
        "an array or object"
      }
    throw DecodingError.dataCorruptedError(
      forKey: key, in: self, debugDescription: "\(found) is not \(CountRange.requirement)")
  }

  /// Decodes a count when the key is present and not `null` (see ``decodeCount(forKey:)``).
  package func decodeCountIfPresent(forKey key: Key) throws -> Int? {
    guard contains(key), try !decodeNil(forKey: key) else { return nil }
    return try decodeCount(forKey: key)
  }
}

/// A count as a `Codable` value (see ``CountRange``): encodes as its
/// number, decodes through ``KeyedDecodingContainer/decodeCount(forKey:)``'s
/// rule, so that a field declared with it says what is wrong at its key.
package struct CodableCount: Codable, Sendable, Hashable {
  package var value: Int

  package init(_ value: Int) {
    self.value = value
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let value = try? container.decode(Int.self), CountRange.contains(value) {
      self.value = value
      return
    }
    let found: String =
      if let value = try? container.decode(Int.self) {
        "\(value)"
      } else if let number = try? container.decode(Double.self) {
        number.rounded() == number && number.magnitude < 1e21 ? String(format: "%.0f", number) : "\(number)"
      } else if (try? container.decode(String.self)) != nil {
        "a string"
      } else {
        "a value that is not a number"
      }
    throw DecodingError.dataCorruptedError(
      in: container, debugDescription: "\(found) is not \(CountRange.requirement)")
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }
}

extension DecodingError {
  /// `usage.input.cachedTokenCount: -5 is not a whole number from 0 to …`:
  /// where the value is and what is wrong with it, without the type's dump.
  package var locatedDescription: String {
    let context: Context
    switch self {
    case .typeMismatch(let type, let found):
      return Self.located("expected \(type)", at: found)
    case .valueNotFound(let type, let found):
      return Self.located("missing \(type)", at: found)
    case .keyNotFound(let key, let found):
      return Self.located("missing \"\(key.stringValue)\"", at: found)
    case .dataCorrupted(let found):
      context = found
    @unknown default:
      return "\(self)"
    }
    var message = context.debugDescription
    if let underlying = context.underlyingError {
      message += " (\(underlying))"
    }
    return Self.path(context.codingPath).map { "\($0): \(message)" } ?? message
  }

  private static func located(_ what: String, at context: Context) -> String {
    let message = "\(what) (\(context.debugDescription))"
    return path(context.codingPath).map { "\($0): \(message)" } ?? message
  }

  private static func path(_ codingPath: [any CodingKey]) -> String? {
    guard !codingPath.isEmpty else { return nil }
    return codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
      .joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
  }
}
