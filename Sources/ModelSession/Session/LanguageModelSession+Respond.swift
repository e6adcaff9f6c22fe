extension LanguageModelSession {
  /// Sends a prompt and returns the model's text answer, after any tool calls.
  ///
  /// ```swift
  /// let response = try await session.respond(to: "Summarize the meeting.")
  /// ```
  @discardableResult
  public func respond(
    to prompt: some PromptRepresentable, options: GenerationOptions = GenerationOptions()
  ) async throws -> Response<String> {
    let turn = try await runTurn(prompt: Self.promptEntry(prompt, options: options, schema: nil), schema: nil)
    return Response(
      content: turn.finalText, rawContent: GeneratedContent(kind: .string(turn.finalText)),
      transcriptEntries: turn.entries[...], usage: turn.usage)
  }

  /// Sends a prompt built with a builder and returns the model's text answer.
  @discardableResult
  public func respond(
    options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
  ) async throws -> Response<String> {
    try await respond(to: try prompt(), options: options)
  }

  /// Sends a prompt and returns content that follows `schema`. Content that
  /// does not follow it is an error, never a silently wrong value.
  @discardableResult
  public func respond(
    to prompt: some PromptRepresentable, schema: GenerationSchema,
    options: GenerationOptions = GenerationOptions()
  ) async throws -> Response<GeneratedContent> {
    try await respond(to: prompt, schema: schema, options: options, acceptContent: nil)
  }

  private func respond(
    to prompt: some PromptRepresentable, schema: GenerationSchema, options: GenerationOptions,
    acceptContent: (@Sendable (GeneratedContent) throws -> Void)?
  ) async throws -> Response<GeneratedContent> {
    let turn = try await runTurn(
      prompt: Self.promptEntry(prompt, options: options, schema: schema), schema: schema,
      acceptContent: acceptContent)
    let content = turn.structuredContent ?? GeneratedContent(kind: .null)
    return Response(
      content: content, rawContent: content, transcriptEntries: turn.entries[...], usage: turn.usage)
  }

  /// Sends a prompt and returns a value of `type`, generated with its schema.
  ///
  /// ```swift
  /// let itinerary = try await session.respond(to: "Plan 3 days in Lisbon", generating: Itinerary.self).content
  /// ```
  @discardableResult
  public func respond<Content: Generable>(
    to prompt: some PromptRepresentable, generating type: Content.Type = Content.self,
    options: GenerationOptions = GenerationOptions()
  ) async throws -> Response<Content> {
    // The value is read before the turn is committed, so a value that does not decode undoes the turn.
    let response = try await respond(
      to: prompt, schema: try Content.generationSchema, options: options,
      acceptContent: { content in
        do {
          _ = try Content(content)
        } catch {
          throw SessionError.decodingFailure("\(error)")
        }
      })
    let value: Content
    do {
      value = try Content(response.rawContent)
    } catch {
      throw SessionError.decodingFailure("\(error)")
    }
    return Response(
      content: value, rawContent: response.rawContent, transcriptEntries: response.transcriptEntries,
      usage: response.usage)
  }

  static func promptEntry(
    _ prompt: some PromptRepresentable, options: GenerationOptions, schema: GenerationSchema?
  ) -> Transcript.Prompt {
    Transcript.Prompt(
      segments: prompt.promptRepresentation.segments, options: options,
      responseFormat: schema.map(Transcript.ResponseFormat.init(schema:)))
  }

  /// Parses and validates the final text of a guided generation.
  static func structuredContent(_ text: String, schema: GenerationSchema) throws -> GeneratedContent {
    let content: GeneratedContent
    do {
      content = try GeneratedContent(json: text)
    } catch {
      throw SessionError.schemaMismatch(schemaName: schema.name, reason: "the response is not JSON: \(error)")
    }
    do {
      try schema.validate(content)
    } catch {
      throw SessionError.schemaMismatch(schemaName: schema.name, reason: "\(error)")
    }
    return content
  }
}
