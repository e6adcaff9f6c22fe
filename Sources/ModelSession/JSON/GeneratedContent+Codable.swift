import Foundation

/// `GeneratedContent` encodes as one string: its compact JSON text (`jsonString`).
///
/// Why a string and not a nested JSON value: Foundation's `JSONEncoder` and
/// `JSONDecoder` do not keep the order of object keys, and transcripts must
/// round-trip byte for byte (prompt caches match exact prefixes). A string holds
/// the text exactly as `jsonString` wrote it, whatever the encoder does.
///
/// ```swift
/// let data = try JSONEncoder().encode(GeneratedContent(json: #"{"b":1,"a":2}"#))
/// // "{\"b\":1,\"a\":2}"
/// ```
extension GeneratedContent: Codable {
  /// Encodes the value as a single string holding its compact JSON text.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(jsonString)
  }

  /// Decodes a value from a string holding JSON text.
  ///
  /// - Throws: `DecodingError.dataCorrupted` with the parser's message when the
  ///   string is not valid JSON.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      self = try JSONParser.parse(text, isPartial: false)
    } catch {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "Invalid JSON in GeneratedContent: \(error)")
    }
  }
}

extension GeneratedContent {
  /// Creates content from any `Encodable` value, through `JSONEncoder`.
  ///
  /// Object keys appear in the order `JSONEncoder` writes them (sorted, so that
  /// the result does not depend on hashing).
  ///
  /// ```swift
  /// struct Trip: Codable { var city: String; var days: Int }
  /// let content = try GeneratedContent(encoding: Trip(city: "Paris", days: 3))
  /// ```
  ///
  /// - Throws: `GeneratedContentError` with `.decodingFailed` when the value
  ///   cannot be encoded (for example, a non-finite `Double`).
  public init(encoding value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data: Data
    do {
      data = try encoder.encode(value)
    } catch {
      throw GeneratedContentError(
        .decodingFailed("cannot encode \(type(of: value)) as JSON: \(Self.describe(error))"))
    }
    do {
      self = try JSONParser.parse(bytes: [UInt8](data))
    } catch {
      throw GeneratedContentError(.decodingFailed("JSONEncoder produced invalid JSON: \(error)"))
    }
  }

  /// Decodes a `Decodable` value from the content, through `JSONDecoder`.
  ///
  /// ```swift
  /// let trip = try content.decoded(as: Trip.self)
  /// ```
  ///
  /// - Throws: `GeneratedContentError` with `.decodingFailed` and the path of
  ///   the value that did not fit (`$.stops[2].name`).
  public func decoded<Value: Decodable>(as type: Value.Type = Value.self) throws -> Value {
    do {
      return try JSONDecoder().decode(Value.self, from: Data(jsonBytes))
    } catch let error as DecodingError {
      let (path, message) = Self.describe(error)
      throw GeneratedContentError(.decodingFailed("cannot decode \(Value.self): \(message)"), path: path)
    } catch {
      throw GeneratedContentError(.decodingFailed("cannot decode \(Value.self): \(error)"))
    }
  }

  /// A readable message for an `EncodingError`, or any other error.
  private static func describe(_ error: any Error) -> String {
    if case .invalidValue(_, let context) = error as? EncodingError {
      return "\(context.debugDescription) at \(path(of: context.codingPath))"
    }
    return "\(error)"
  }

  /// The path and a readable message for a `DecodingError`.
  private static func describe(_ error: DecodingError) -> (path: String, message: String) {
    switch error {
    case .typeMismatch(let type, let context):
      (path(of: context.codingPath), "expected \(type): \(context.debugDescription)")
    case .valueNotFound(let type, let context):
      (path(of: context.codingPath), "missing \(type): \(context.debugDescription)")
    case .keyNotFound(let key, let context):
      (path(of: context.codingPath), "missing property \"\(key.stringValue)\"")
    case .dataCorrupted(let context):
      (path(of: context.codingPath), context.debugDescription)
    @unknown default:
      ("$", "\(error)")
    }
  }

  /// A coding path as `$.stops[2].name`.
  private static func path(of codingPath: [any CodingKey]) -> String {
    var path = "$"
    for key in codingPath {
      if let index = key.intValue {
        path += "[\(index)]"
      } else {
        path += ".\(key.stringValue)"
      }
    }
    return path
  }
}
