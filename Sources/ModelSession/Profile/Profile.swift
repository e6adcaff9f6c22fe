/// A profile built from instructions, tools and dynamic instructions.
///
/// ```swift
/// Profile {
///   Instructions("You plan trips.")
///   WeatherTool()
///   if user.prefersShortAnswers { "Answer in one paragraph." }
/// }
/// .temperature(0.3)
/// ```
public struct Profile: DynamicProfile {
  /// The profile's content.
  public var content: ProfileContent

  /// Creates a profile with a builder.
  public init(@ProfileContentBuilder _ content: () throws -> ProfileContent) rethrows {
    self.content = try content()
  }

  /// Creates a profile from content.
  public init(content: ProfileContent) {
    self.content = content
  }

  /// The profile itself: a building block resolves its content directly.
  public var body: Profile { self }

  /// Adds the content.
  public func resolve(into resolution: inout ProfileResolution) async throws {
    try await content.resolve(into: &resolution)
  }
}
