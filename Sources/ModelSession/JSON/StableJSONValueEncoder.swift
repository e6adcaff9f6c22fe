import Foundation

/// The `Encoder` that `StableJSONEncoder` hands to a value's `encode(to:)`:
/// everything it writes goes into one `StableJSONNode`.
struct StableJSONValueEncoder: Encoder {
  let node: StableJSONNode
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  /// The first misuse of the containers, shared by the whole encode.
  let misuse: StableJSONMisuse

  /// Encodes `value` into `node`, then sorts what a `Dictionary` or a `Set` wrote.
  static func encode<Value: Encodable>(
    _ value: Value, into node: StableJSONNode, codingPath: [any CodingKey], misuse: StableJSONMisuse
  ) throws {
    if let scalar = try scalar(of: value, codingPath: codingPath) {
      guard node.isPending else {
        misuse.record("a second value was encoded where one was already written", at: codingPath)
        return
      }
      node.set(scalar)
    } else {
      try value.encode(to: StableJSONValueEncoder(node: node, codingPath: codingPath, misuse: misuse))
      if value is any StableJSONKeyedByHash {
        node.sortMembers(alternatingPairs: true)
      } else if value is any StableJSONElementsByHash {
        node.sortMembers(alternatingPairs: false)
      }
    }
  }

  /// The JSON value of the types `JSONEncoder` writes itself rather than through
  /// their `encode(to:)`: numbers, booleans, strings, `Data` (Base64), `URL`
  /// (absolute string) and `Decimal`.
  private static func scalar(
    of value: some Encodable, codingPath: [any CodingKey]
  ) throws
    -> StableJSONNode.Kind?
  {
    switch value {
    case let flag as Bool: return .bool(flag)
    case let string as String: return .string(string)
    case let number as Double: return .number(try text(of: number, codingPath: codingPath))
    case let number as Float: return .number(try text(of: number, codingPath: codingPath))
    case let integer as any BinaryInteger: return .number(String(describing: integer))
    case let data as Data: return .string(data.base64EncodedString())
    case let url as URL: return .string(url.absoluteString)
    case let decimal as Decimal:
      guard decimal.isFinite else { throw nonFinite(decimal, codingPath: codingPath) }
      return .number(decimal.description)
    default: return nil
    }
  }

  /// Whole numbers that a `Double` holds exactly as integers, others in their
  /// shortest round-trip form (`0.1`, `1e-07`, `1e+300`).
  private static func text<Number: BinaryFloatingPoint & LosslessStringConvertible & Encodable>(
    of number: Number, codingPath: [any CodingKey]
  ) throws -> String {
    guard number.isFinite else { throw nonFinite(number, codingPath: codingPath) }
    if number.rounded(.towardZero) == number, number.magnitude < 9_007_199_254_740_992 {
      return String(Int64(number))
    }
    return number.description
  }

  private static func nonFinite(_ value: some Encodable, codingPath: [any CodingKey]) -> EncodingError {
    EncodingError.invalidValue(
      value, .init(codingPath: codingPath, debugDescription: "\(value) is not a JSON number"))
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    switch node.kind {
    case .pending: node.kind = .object
    case .object: break
    default:
      misuse.record("a keyed container was asked for where a value was already written", at: codingPath)
    }
    return KeyedEncodingContainer(
      StableJSONKeyedContainer(node: node, codingPath: codingPath, misuse: misuse))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    switch node.kind {
    case .pending: node.kind = .array
    case .array: break
    default:
      misuse.record("an unkeyed container was asked for where a value was already written", at: codingPath)
    }
    return StableJSONUnkeyedContainer(node: node, codingPath: codingPath, misuse: misuse)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    StableJSONSingleValueContainer(node: node, codingPath: codingPath, misuse: misuse)
  }
}

/// The first misuse of an encoder's containers (two kinds of container for one
/// value, two values in one place), turned into an error when the encode ends.
final class StableJSONMisuse {
  private(set) var error: EncodingError?

  func record(_ problem: String, at codingPath: [any CodingKey]) {
    guard error == nil else { return }
    let path = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    error = EncodingError.invalidValue(
      problem, .init(codingPath: codingPath, debugDescription: "\(problem) at $\(path)"))
  }
}

/// An index as a coding key, for the paths of array elements.
struct StableJSONIndexKey: CodingKey {
  let intValue: Int?
  var stringValue: String { intValue.map(String.init) ?? "" }

  init(intValue: Int) {
    self.intValue = intValue
  }

  init?(stringValue: String) {
    guard let index = Int(stringValue) else { return nil }
    intValue = index
  }
}
