extension LanguageModelSession {
  /// The result of a turn.
  public struct Response<Content: Sendable>: Sendable {
    /// The answer: text, generated content, or a value decoded from it.
    public var content: Content
    /// The answer as generated content (for text, a string).
    public var rawContent: GeneratedContent
    /// The entries the turn added to the transcript: the prompt, and every
    /// reasoning, tool-call, tool-output and response entry after it.
    public var transcriptEntries: ArraySlice<Transcript.Entry>
    /// The tokens the turn used, summed over its generations.
    public var usage: GenerationUsage

    /// Creates a response.
    public init(
      content: Content, rawContent: GeneratedContent, transcriptEntries: ArraySlice<Transcript.Entry>,
      usage: GenerationUsage
    ) {
      self.content = content
      self.rawContent = rawContent
      self.transcriptEntries = transcriptEntries
      self.usage = usage
    }
  }
}
