/// A transcript segment of a type the application defines.
///
/// Register the type once with `Transcript.registerCustomSegmentType(_:)` so
/// that a transcript that holds one decodes back into the same type.
///
/// ```swift
/// struct Citation: Transcript.CustomSegment {
///   static let typeIdentifier = "com.example.citation"
///   var id: String
///   var url: String
/// }
/// Transcript.registerCustomSegmentType(Citation.self)
/// ```
public protocol CustomSegment: Sendable, Codable {
  /// A name that identifies the type in the JSON form; stable across releases.
  static var typeIdentifier: String { get }
  /// The segment's stable identifier.
  var id: String { get }
  /// Whether this segment equals another (of any custom type).
  func isEqual(to other: any CustomSegment) -> Bool
}

extension CustomSegment where Self: Equatable {
  /// Equal when `other` has the same type and compares equal.
  public func isEqual(to other: any CustomSegment) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}

extension Transcript {
  /// A segment of an application-defined type (see ``ModelSession/CustomSegment``).
  public typealias CustomSegment = ModelSession.CustomSegment
}
