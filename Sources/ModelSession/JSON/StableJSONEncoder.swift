import Foundation

/// Encodes any `Encodable` value as JSON whose bytes depend on the value only:
/// the same value gives the same bytes in every encode and every process.
///
/// Foundation's `JSONEncoder` keeps each object's members in a `Dictionary`,
/// whose order follows a hash seed that changes from one process to the next
/// (and, on Linux, from one encode to the next). A request body encoded with
/// it misses the server's prompt cache whenever the order changes, unless the
/// encoder is given `.sortedKeys`. `StableJSONEncoder` needs no option:
///
/// - an object's members come out in the order the value's `encode(to:)`
///   wrote them, so a `GenerationSchema` keeps its properties in the order
///   they were declared (the order a model generates them in), and a
///   `Transcript` comes out in its documented field order;
/// - the members of a `Dictionary` are sorted by key (UTF-8 byte order) and
///   the elements of a `Set` by their JSON text, since their own order is the
///   hash order;
/// - `Data` is written as a Base64 string, `URL` as its absolute string and
///   `Decimal` as a number, as `JSONEncoder` writes them by default, so
///   `JSONDecoder` reads the output back into the same value.
///
/// The output is compact, with only `"`, `\` and control characters escaped.
/// A value whose own `encode(to:)` walks a `Dictionary` itself still comes out
/// in hash order: check a provider's request encoding with
/// ``EncodingStability/check(repetitions:_:)``.
///
/// ```swift
/// struct ChatRequest: Encodable {
///   var model: String
///   var schema: GenerationSchema
///   var transcript: Transcript
/// }
/// let body = try StableJSONEncoder().encode(request)  // same request, same bytes
/// ```
public struct StableJSONEncoder: Sendable {
  /// Creates an encoder.
  public init() {}

  /// The JSON text of `value`.
  ///
  /// - Parameter value: The value to encode.
  /// - Returns: The UTF-8 bytes of the value's JSON text.
  /// - Throws: `EncodingError.invalidValue`, with the coding path, for a
  ///   non-finite floating-point number, for a top-level value that encodes
  ///   nothing, or for a value that asks one encoder for two kinds of
  ///   container; any error the value's `encode(to:)` throws.
  public func encode(_ value: some Encodable) throws -> Data {
    let root = StableJSONNode()
    let misuse = StableJSONMisuse()
    try StableJSONValueEncoder.encode(value, into: root, codingPath: [], misuse: misuse)
    if let error = misuse.error { throw error }
    guard !root.isPending else {
      throw EncodingError.invalidValue(
        value,
        .init(codingPath: [], debugDescription: "\(type(of: value)) did not encode any value"))
    }
    var writer = StableJSONNodeWriter()
    writer.write(root)
    return Data(writer.bytes)
  }
}

/// `Dictionary`, whose encoding follows its hash order: sorted by key after encoding.
protocol StableJSONKeyedByHash {}

/// `Set`, whose encoding follows its hash order: sorted by element after encoding.
protocol StableJSONElementsByHash {}

extension Dictionary: StableJSONKeyedByHash where Key: Encodable, Value: Encodable {}

extension Set: StableJSONElementsByHash where Element: Encodable {}
