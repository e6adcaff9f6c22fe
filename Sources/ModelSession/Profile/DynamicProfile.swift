/// What a session sends the model before each generation: instructions,
/// tools, settings, and the modifiers that shape the history.
///
/// The session evaluates the profile before every generation, so its content
/// can change between generations (a skill that activates, a setting that
/// flips).
///
/// A profile is `Sendable` and its `body` runs off the main actor. It may
/// hold an app's `@Observable` object when that object is main-actor
/// isolated (the default in a new app target) and read, from `body`, the
/// object's `let` properties of `Sendable` type: a `SkillActivations`
/// store, or a `nonisolated` `Sendable` class of your own with its state
/// behind a `Mutex`. What the app changes there between turns is in the next
/// request; a main-actor `var` cannot be read from `body`.
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
  /// The framework's spelling of ``ModelSession/Profile``: `LanguageModelSession.Profile { … }`.
  public typealias Profile = ModelSession.Profile
}
