import Foundation

/// Everything an executor needs for one generation.
public struct LanguageModelExecutorGenerationRequest: Sendable {
  /// A fresh identifier for this generation.
  public var id: UUID
  /// The transcript the model sees: instructions first, then the (possibly
  /// compressed) history, ending with the prompt or the latest tool outputs.
  public var transcript: Transcript
  /// The tools the model may call.
  public var enabledToolDefinitions: [Transcript.ToolDefinition]
  /// The schema the output must follow, for guided generation.
  public var schema: GenerationSchema?
  /// Sampling, temperature, length and tool-calling options.
  public var generationOptions: GenerationOptions
  /// Options about the context, such as the reasoning level.
  public var contextOptions: ContextOptions
  /// Free-form data for the executor.
  public var metadata: [String: GeneratedContent]

  /// Creates a request.
  public init(
    id: UUID = UUID(), transcript: Transcript, enabledToolDefinitions: [Transcript.ToolDefinition],
    schema: GenerationSchema? = nil, generationOptions: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(), metadata: [String: GeneratedContent] = [:]
  ) {
    self.id = id
    self.transcript = transcript
    self.enabledToolDefinitions = enabledToolDefinitions
    self.schema = schema
    self.generationOptions = generationOptions
    self.contextOptions = contextOptions
    self.metadata = metadata
  }
}
