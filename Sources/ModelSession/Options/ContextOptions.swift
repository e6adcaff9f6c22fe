/// Options about what goes into the model's context, beyond the transcript.
public struct ContextOptions: Sendable, Equatable, Hashable, Codable {
  /// How much the model should reason before it answers.
  public enum ReasoningLevel: Sendable, Equatable, Hashable, Codable {
    /// Little reasoning.
    case low
    /// Some reasoning.
    case medium
    /// Much reasoning.
    case high
    /// A provider-specific level.
    case custom(String)
  }

  /// Whether the response schema is also written into the prompt, for models
  /// that do not enforce it.
  public var includeSchemaInPrompt: Bool
  /// How much the model should reason; `nil` leaves it to the model.
  public var reasoningLevel: ReasoningLevel?

  /// Creates context options.
  public init(includeSchemaInPrompt: Bool = true, reasoningLevel: ReasoningLevel? = nil) {
    self.includeSchemaInPrompt = includeSchemaInPrompt
    self.reasoningLevel = reasoningLevel
  }
}
