// Placeholder replaced by the schema work.
/// A schema.
public struct GenerationSchema: Sendable, Hashable, Codable {
  /// The schema's name.
  public var name: String = "placeholder"
}
extension GenerationSchema {
  /// Validates.
  public func validate(_ content: GeneratedContent) throws {}
}
