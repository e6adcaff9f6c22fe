import Synchronization

extension LanguageModelSession {
  /// The snapshots of a streamed turn: each holds everything so far, not a delta.
  ///
  /// ```swift
  /// for try await snapshot in session.streamResponse(to: "Tell me a story") {
  ///   textView.text = snapshot.content
  /// }
  /// ```
  public struct ResponseStream<Content: Sendable>: AsyncSequence, Sendable {
    /// Everything the turn produced so far.
    public struct Snapshot: Sendable {
      /// The answer so far: text, or partially generated content.
      public var content: Content
      /// The answer so far as generated content (partial while streaming).
      public var rawContent: GeneratedContent
      /// The entries the turn has produced so far, starting with the prompt.
      public var transcriptEntries: ArraySlice<Transcript.Entry>
      /// The tokens used so far.
      public var usage: GenerationUsage
    }

    /// The element type: a snapshot.
    public typealias Element = Snapshot

    let snapshots: AsyncThrowingStream<Snapshot, any Error>
    let final: @Sendable () async throws -> Response<Content>

    /// Iterates the snapshots.
    public struct AsyncIterator: AsyncIteratorProtocol {
      var base: AsyncThrowingStream<Snapshot, any Error>.AsyncIterator

      /// The next snapshot, or `nil` when the turn is over.
      public mutating func next() async throws -> Snapshot? {
        try await base.next()
      }
    }

    /// Makes an iterator.
    public func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(base: snapshots.makeAsyncIterator())
    }

    /// Waits for the end of the turn and returns its response.
    public func collect() async throws -> Response<Content> {
      try await final()
    }
  }

  /// Streams the text answer to a prompt as cumulative snapshots.
  public func streamResponse(
    to prompt: some PromptRepresentable, options: GenerationOptions = GenerationOptions()
  ) -> ResponseStream<String> {
    let entry = Self.promptEntry(prompt, options: options, schema: nil)
    return stream(entry: entry, schema: nil, content: { $0 }) { turn in
      Response(
        content: turn.finalText, rawContent: GeneratedContent(kind: .string(turn.finalText)),
        transcriptEntries: turn.entries[...], usage: turn.usage)
    }
  }

  /// Streams content that follows `schema` as cumulative snapshots of
  /// partially generated content; the final response is validated.
  public func streamResponse(
    to prompt: some PromptRepresentable, schema: GenerationSchema,
    options: GenerationOptions = GenerationOptions()
  ) -> ResponseStream<GeneratedContent> {
    let entry = Self.promptEntry(prompt, options: options, schema: schema)
    return stream(
      entry: entry, schema: schema,
      content: { (try? GeneratedContent(partialJSON: $0)) ?? GeneratedContent(kind: .null) }
    ) { turn in
      let content = turn.structuredContent ?? GeneratedContent(kind: .null)
      return Response(
        content: content, rawContent: content, transcriptEntries: turn.entries[...], usage: turn.usage)
    }
  }

  private func stream<Content: Sendable>(
    entry: Transcript.Prompt, schema: GenerationSchema?, content: @escaping @Sendable (String) -> Content,
    finish: @escaping @Sendable (TurnResult) throws -> Response<Content>
  ) -> ResponseStream<Content> {
    typealias Snapshot = ResponseStream<Content>.Snapshot
    let (snapshots, continuation) = AsyncThrowingStream<Snapshot, any Error>.makeStream(
      bufferingPolicy: .bufferingNewest(1))
    let task = Task<Response<Content>, any Error> {
      do {
        let turn = try await runTurn(
          prompt: entry, schema: schema,
          onProgress: { progress in
            let value = content(progress.text)
            continuation.yield(
              Snapshot(
                content: value,
                rawContent: (value as? GeneratedContent) ?? GeneratedContent(kind: .string(progress.text)),
                transcriptEntries: progress.entries[...], usage: progress.usage))
          })
        let response = try finish(turn)
        continuation.yield(
          Snapshot(
            content: response.content, rawContent: response.rawContent,
            transcriptEntries: response.transcriptEntries,
            usage: response.usage))
        continuation.finish()
        return response
      } catch {
        continuation.finish(throwing: error)
        throw error
      }
    }
    continuation.onTermination = { termination in
      if case .cancelled = termination { task.cancel() }
    }
    return ResponseStream(snapshots: snapshots, final: { try await task.value })
  }
}
