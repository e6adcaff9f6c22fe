/// A profile with session-level settings.
public struct ConfiguredProfile<Content: DynamicProfile>: DynamicProfile {
  /// The profile configured.
  public var content: Content
  /// The temperature to use when a request sets none.
  public var temperature: Double?
  /// The reasoning level to ask for.
  public var reasoningLevel: ContextOptions.ReasoningLevel?

  /// The profile itself: a building block resolves directly.
  public var body: Self { self }

  /// Resolves the content, then applies the settings (outer settings win).
  public func resolve(into resolution: inout ProfileResolution) async throws {
    try await content.resolve(into: &resolution)
    if let temperature { resolution.temperature = temperature }
    if let reasoningLevel { resolution.reasoningLevel = reasoningLevel }
  }
}

extension DynamicProfile {
  /// Sets the temperature used when a request sets none.
  public func temperature(_ temperature: Double) -> ConfiguredProfile<Self> {
    ConfiguredProfile(content: self, temperature: temperature, reasoningLevel: nil)
  }

  /// Sets the reasoning level to ask the model for.
  public func reasoningLevel(_ level: ContextOptions.ReasoningLevel) -> ConfiguredProfile<Self> {
    ConfiguredProfile(content: self, temperature: nil, reasoningLevel: level)
  }
}
