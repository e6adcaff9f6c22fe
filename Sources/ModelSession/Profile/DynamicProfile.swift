/// What a session sends the model before each generation: instructions,
/// tools, settings, and the modifiers that shape the history.
///
/// The session evaluates the profile before every generation, so its content
/// can change between generations (a skill that activates, a setting that
/// flips).
///
/// ```swift
/// struct SupportProfile: DynamicProfile {
///   var body: some DynamicProfile {
///     Profile {
///       Instructions("You answer questions about the Acme router.")
///       LookupManualTool()
///     }
///     .rollingWindow(.tokens(3_000))
///   }
/// }
/// ```
public protocol DynamicProfile: Sendable {
  /// The profile this one is made of.
  associatedtype Body: DynamicProfile

  /// The profile this one is made of.
  var body: Body { get }

  /// Adds this profile's instructions, tools, settings and modifiers to
  /// `resolution`. The default resolves `body`; only the building blocks
  /// (`Profile`, modified profiles) implement it themselves.
  func resolve(into resolution: inout ProfileResolution) async throws
}

extension DynamicProfile {
  /// Resolves `body`.
  public func resolve(into resolution: inout ProfileResolution) async throws {
    try await body.resolve(into: &resolution)
  }
}

extension LanguageModelSession {
  /// A profile: instructions, tools, settings and history modifiers.
  public typealias DynamicProfile = ModelSession.DynamicProfile
}
