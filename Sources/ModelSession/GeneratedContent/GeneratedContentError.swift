/// Why a `GeneratedContent` value could not be read as the type asked for.
public struct GeneratedContentError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Sendable, Equatable {
    /// The value has another JSON type than the one asked for.
    case typeMismatch(expected: String, found: String)
    /// An object lacks a property that was asked for.
    case missingProperty(String)
    /// A number cannot be represented by the type asked for.
    case numberOutOfRange(Double, type: String)
    /// A `Codable` type could not be decoded from the value.
    case decodingFailed(String)
  }

  /// What went wrong.
  public var reason: Reason
  /// Where in the value, as a JSON-pointer-like path (`$.items[2].name`).
  public var path: String

  /// Creates an error.
  public init(_ reason: Reason, path: String = "$") {
    self.reason = reason
    self.path = path
  }

  /// A message that names the path and the problem.
  public var description: String {
    switch reason {
    case .typeMismatch(let expected, let found):
      "\(path): expected \(expected), found \(found)"
    case .missingProperty(let name):
      "\(path): missing property \"\(name)\""
    case .numberOutOfRange(let value, let type):
      "\(path): \(value) does not fit in \(type)"
    case .decodingFailed(let message):
      "\(path): \(message)"
    }
  }
}
