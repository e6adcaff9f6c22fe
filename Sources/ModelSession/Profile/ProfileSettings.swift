/// A profile with session-level settings.
public struct ConfiguredProfile<Content: DynamicProfile>: DynamicProfile {
  /// The profile configured.
  public var content: Content
  /// The temperature to use when a request sets none.
  public var temperature: Double?
  /// The reasoning level to ask for.
  public var reasoningLevel: ContextOptions.ReasoningLevel?
  /// The model the session generates with (see ``DynamicProfile/model(_:)``).
  public var model: (any LanguageModel)?

  /// The profile itself: a building block resolves directly.
  public var body: Self { self }

  /// Resolves the content, then applies the settings (outer settings win).
  public func resolve(into resolution: inout ProfileResolution) async throws {
    try await content.resolve(into: &resolution)
    if let temperature { resolution.temperature = temperature }
    if let reasoningLevel { resolution.reasoningLevel = reasoningLevel }
    if let model { resolution.model = model }
  }
}

extension DynamicProfile {
  /// Sets the temperature used when a request sets none.
  public func temperature(_ temperature: Double) -> ConfiguredProfile<Self> {
    ConfiguredProfile(content: self, temperature: temperature, reasoningLevel: nil, model: nil)
  }

  /// Sets the reasoning level to ask the model for.
  public func reasoningLevel(_ level: ContextOptions.ReasoningLevel) -> ConfiguredProfile<Self> {
    ConfiguredProfile(content: self, temperature: nil, reasoningLevel: level, model: nil)
  }

  /// Names the model the session generates with, as the framework's profiles do.
  ///
  /// ```swift
  /// let session = LanguageModelSession(profile: Profile { Instructions("Be brief.") }.model(model))
  /// ```
  ///
  /// The profile is evaluated before every generation, so a profile can
  /// switch models as its state changes. The model named here wins over the
  /// one given to `LanguageModelSession(model:profile:)`, which is used only
  /// for generations whose profile names none; an outer `.model(_:)` wins
  /// over an inner one.
  public func model(_ model: some LanguageModel) -> ConfiguredProfile<Self> {
    ConfiguredProfile(content: self, temperature: nil, reasoningLevel: nil, model: model)
  }
}
