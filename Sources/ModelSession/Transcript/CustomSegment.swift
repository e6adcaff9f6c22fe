import Foundation

/// A transcript segment of a type the application defines.
///
/// A custom segment can be written straight into a prompt, and an executor
/// sends one back with `.updateCustomSegment(_:)`. Only `id` is required:
/// `typeIdentifier` defaults to the type's qualified name, and equality to
/// `==` for `Equatable` types, else to equal JSON. Register the type once with
/// `Transcript.registerCustomSegmentType(_:)` so that a transcript that holds
/// one decodes back into the same type.
///
/// ```swift
/// struct Citation: Transcript.CustomSegment {
///   static let typeIdentifier = "com.example.citation"
///   var id: String
///   var url: String
/// }
/// Transcript.registerCustomSegmentType(Citation.self)
/// let answer = try await session.respond {
///   "Summarize this source."
///   Citation(id: "c1", url: "https://example.com")
/// }
/// ```
public protocol CustomSegment: Sendable, Codable, PromptRepresentable {
  /// A name that identifies the type in the JSON form; stable across releases.
  static var typeIdentifier: String { get }
  /// The segment's stable identifier.
  var id: String { get }
  /// Whether this segment equals another (of any custom type).
  func isEqual(to other: any CustomSegment) -> Bool
}

extension CustomSegment {
  /// The type's qualified name (`MyModule.AudioSegment`); declare your own to
  /// keep stored transcripts readable when the type is renamed or moved.
  public static var typeIdentifier: String { String(reflecting: Self.self) }

  /// Equal when `other` has the same type and the same JSON form.
  public func isEqual(to other: any CustomSegment) -> Bool {
    guard let other = other as? Self else { return false }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    guard let mine = try? encoder.encode(self), let theirs = try? encoder.encode(other) else { return false }
    return mine == theirs
  }

  /// The segment as a prompt of one custom segment.
  public var promptRepresentation: Prompt { Prompt(segments: [.custom(self)]) }
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
