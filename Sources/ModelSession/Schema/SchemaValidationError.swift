/// Where and how a `GeneratedContent` value fails to follow a
/// `GenerationSchema`.
///
/// ```swift
/// do {
///   try schema.validate(content)
/// } catch {
///   print(error)  // $.items[2].age: expected an integer, found 2.5
/// }
/// ```
public struct SchemaValidationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What does not match.
  public enum Reason: Sendable, Equatable {
    /// A required property is absent.
    case missingProperty(String)
    /// The object has a property the schema does not list.
    case unknownProperty(String)
    /// The value has another JSON type than the schema's (`expected` is
    /// `object`, `array`, `string`, `number`, `integer` or `boolean`).
    case typeMismatch(expected: String, found: String)
    /// An integer was expected, and the number has a fraction.
    case notAnInteger(Double)
    /// The string is not one of the allowed values.
    case notAllowed(String, allowed: [String])
    /// The string is not the constant the schema requires.
    case notConstant(String, expected: String)
    /// The string contains no match of the pattern.
    case patternMismatch(String, pattern: String)
    /// The array has fewer elements than the minimum.
    case tooFewElements(count: Int, minimum: Int)
    /// The array has more elements than the maximum.
    case tooManyElements(count: Int, maximum: Int)
    /// The number is below the minimum.
    case belowMinimum(Double, minimum: Double)
    /// The number is above the maximum.
    case aboveMaximum(Double, maximum: Double)
    /// The value matches none of the `anyOf` branches.
    case noMatchingBranch(branches: Int)
  }

  /// Where the mismatch is, from the root `$`: `$.items[2].name`. Property
  /// names that are not identifiers are written `$["a key"]`.
  public var path: String
  /// What does not match.
  public var reason: Reason

  /// Creates an error.
  public init(path: String, reason: Reason) {
    self.path = path
    self.reason = reason
  }

  /// What the schema expected at `path`.
  public var expected: String {
    switch reason {
    case .missingProperty(let name): "property \"\(name)\""
    case .unknownProperty: "no other properties"
    case .typeMismatch(let expected, _): article(expected)
    case .notAnInteger: "an integer"
    case .notAllowed(_, let allowed): "one of " + allowed.map { "\"\($0)\"" }.joined(separator: ", ")
    case .notConstant(_, let expected): "\"\(expected)\""
    case .patternMismatch(_, let pattern): "a string matching \(pattern)"
    case .tooFewElements(_, let minimum): "at least \(minimum) elements"
    case .tooManyElements(_, let maximum): "at most \(maximum) elements"
    case .belowMinimum(_, let minimum): "a number ≥ \(SchemaText.number(minimum))"
    case .aboveMaximum(_, let maximum): "a number ≤ \(SchemaText.number(maximum))"
    case .noMatchingBranch(let branches): "a value matching one of \(branches) choices"
    }
  }

  /// What the content had at `path`.
  public var found: String {
    switch reason {
    case .missingProperty: "nothing"
    case .unknownProperty(let name): "property \"\(name)\""
    case .typeMismatch(_, let found): found
    case .notAnInteger(let value), .belowMinimum(let value, _), .aboveMaximum(let value, _):
      SchemaText.number(value)
    case .notAllowed(let value, _), .notConstant(let value, _), .patternMismatch(let value, _): "\"\(value)\""
    case .tooFewElements(let count, _), .tooManyElements(let count, _): "\(count) elements"
    case .noMatchingBranch: "a value matching none"
    }
  }

  /// The path, then what was expected and what was found.
  public var description: String {
    "\(path): expected \(expected), found \(found)"
  }

  private func article(_ type: String) -> String {
    type.first.map { "aeiou".contains($0) } == true ? "an \(type)" : "a \(type)"
  }
}
