import ModelSession

/// The parts of a generation request that reach the server's prompt: the
/// tools offered, the context options, the response schema and the
/// transcript (instructions first).
///
/// Sampling options (temperature, sampling mode, maximum tokens) are not part
/// of it: they change how the server samples, not the tokens it reads.
public struct PromptRequest: Sendable, Equatable {
  /// The tools offered, in order.
  public var toolDefinitions: [Transcript.ToolDefinition]
  /// The context options (reasoning level, whether the schema is in the prompt).
  public var contextOptions: ContextOptions
  /// The response schema, when there is one.
  public var schema: GenerationSchema?
  /// The transcript sent, starting with the instructions entry when there is one.
  public var transcript: Transcript

  /// Creates a request.
  public init(
    toolDefinitions: [Transcript.ToolDefinition], contextOptions: ContextOptions = ContextOptions(),
    schema: GenerationSchema? = nil, transcript: Transcript
  ) {
    self.toolDefinitions = toolDefinitions
    self.contextOptions = contextOptions
    self.schema = schema
    self.transcript = transcript
  }

  /// What the generation of `record` sent.
  public init(record: GenerationRecord) {
    self.init(
      toolDefinitions: record.toolDefinitions, contextOptions: record.contextOptions, schema: record.schema,
      transcript: record.sentTranscript)
  }

  /// What an executor is asked to send.
  public init(_ request: LanguageModelExecutorGenerationRequest) {
    self.init(
      toolDefinitions: request.enabledToolDefinitions, contextOptions: request.contextOptions,
      schema: request.schema, transcript: request.transcript)
  }
}
