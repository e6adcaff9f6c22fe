import Foundation
import Synchronization

extension LanguageModelSession {
  /// The work of one turn, before it is committed to the transcript.
  struct TurnResult {
    var entries: [Transcript.Entry]
    var finalText: String
    var usage: GenerationUsage
    /// The final content parsed and validated, when a schema was requested.
    var structuredContent: GeneratedContent?
  }

  /// What a streaming caller sees while a turn runs.
  struct TurnProgress {
    var entries: [Transcript.Entry]
    var text: String
    var usage: GenerationUsage
  }

  /// Runs a turn and commits it to the transcript when, and only when, it succeeds.
  ///
  /// `acceptContent`, when given, reads the validated structured content
  /// (for example as the caller's type) before the turn is committed: if it
  /// throws, the turn is undone like any other failure.
  func runTurn(
    prompt: Transcript.Prompt, schema: GenerationSchema?,
    acceptContent: (@Sendable (GeneratedContent) throws -> Void)? = nil,
    onProgress: (@Sendable (TurnProgress) -> Void)? = nil
  ) async throws -> TurnResult {
    let (stored, full, turnIndex) = try state.withLock { state -> (Transcript, Transcript?, Int) in
      guard !state.isResponding else { throw SessionError.concurrentRequests }
      state.isResponding = true
      return (state.transcript, state.fullTranscript, state.turnCount)
    }
    do {
      let ledger = TurnLedger(stored: stored, full: full, prompt: prompt, makeID: { UUID().uuidString })
      var result = try await generateTurn(
        ledger: ledger, prompt: prompt, schema: schema, turnIndex: turnIndex, onProgress: onProgress)
      if let schema {
        // Validated before committing: a response that breaks the schema is an error, and the turn is undone.
        let content = try Self.structuredContent(result.turn.finalText, schema: schema)
        try acceptContent?(content)
        result.turn.structuredContent = content
      }
      state.withLock { state in
        state.transcript = result.transcript
        state.fullTranscript = result.fullTranscript
        state.usage += result.turn.usage
        state.turnCount += 1
        state.isResponding = false
      }
      return result.turn
    } catch {
      state.withLock { $0.isResponding = false }
      if Task.isCancelled, !(error is CancellationError) { throw CancellationError() }
      throw error
    }
  }

  /// Runs the rounds of a turn: each resolves the profile, runs the
  /// modifiers, generates, and runs the tools the model called, until the
  /// model answers without calling a tool.
  private func generateTurn(
    ledger start: TurnLedger, prompt: Transcript.Prompt, schema: GenerationSchema?, turnIndex: Int,
    onProgress: (@Sendable (TurnProgress) -> Void)?
  ) async throws -> (turn: TurnResult, transcript: Transcript, fullTranscript: Transcript?) {
    var ledger = start
    for round in 0... {
      try Task.checkCancellation()
      let turn = ProfileTurn(prompt: prompt, round: round, history: ledger.storedHistory(instructions: nil))
      let setup = try await RoundSetup.resolve(profile, instructionsID: ledger.instructionsID, turn: turn)
      ledger.latestInstructions = setup.instructions
      try ledger.append(profileEntries: setup.resolution.appendedEntries)
      let output = try await generateRound(
        round, of: ledger, setup: setup, prompt: prompt, schema: schema, turnIndex: turnIndex,
        onProgress: onProgress)
      if let committed = output.committedHistory { ledger.commit(history: committed) }
      ledger.append(generated: output.entries, usage: output.usage)
      if output.toolCalls.isEmpty {
        let turn = TurnResult(entries: ledger.newEntries, finalText: output.responseText, usage: ledger.usage)
        return (turn, ledger.committedTranscript, ledger.committedFullTranscript)
      }
      try ledger.startToolRound(limit: maximumToolRounds)
      let outputs = try await ToolRunner(toolsByName: setup.toolsByName).run(output.toolCalls)
      ledger.append(toolOutputs: outputs)
      onProgress?(TurnProgress(entries: ledger.newEntries, text: "", usage: ledger.usage))
    }
    // `for round in 0...` only ends by returning or throwing.
    throw CancellationError()
  }

  /// One generation of a turn: the modifiers, the request, the capability
  /// check, the executor, and the generation record, published whether the
  /// generation succeeds or fails. A generation the model refuses as too long
  /// is retried once when a modifier compacts on overflow (see ``ContextOverflowRecovery``).
  private func generateRound(
    _ round: Int, of ledger: TurnLedger, setup: RoundSetup, prompt: Transcript.Prompt,
    schema: GenerationSchema?, turnIndex: Int, onProgress: (@Sendable (TurnProgress) -> Void)?
  ) async throws -> GenerationOutput {
    guard let model = setup.resolution.model ?? self.model else { throw SessionError.noModel }
    let modifiers = setup.modifiersInApplicationOrder
    let options = setup.generationOptions(for: prompt, round: round)
    var retryingAfter: ContextOverflow?
    while true {
      let requestID = UUID()
      let context = ProfileModifierContext(
        turnIndex: turnIndex, round: round, toolDefinitions: setup.toolDefinitions,
        requestID: requestID.uuidString, model: model,
        contextRetention: setup.resolution.contextRetention ?? ContextRetention(),
        reservedResponseTokens: options.maximumResponseTokens ?? 0,
        contextOverflow: retryingAfter ?? state.withLock { $0.contextOverflow },
        isRetryAfterContextOverflow: retryingAfter != nil)
      // The retry is the same generation: the modifiers were told of it once.
      if retryingAfter == nil { try await ModifierPipeline.prepare(modifiers, in: context) }
      let storedHistory = ledger.storedHistory(instructions: setup.instructions)
      let modified = try await ModifierPipeline.apply(modifiers, to: storedHistory, in: context)

      let request = LanguageModelExecutorGenerationRequest(
        id: requestID, transcript: modified.history, enabledToolDefinitions: setup.toolDefinitions,
        schema: schema, generationOptions: options,
        contextOptions: ContextOptions(reasoningLevel: setup.resolution.reasoningLevel))
      let recoveryNotes = retryingAfter.map { [ContextOverflowRecovery.note(for: $0)] } ?? []
      var record = GenerationRecord(
        requestID: requestID, turnIndex: turnIndex, round: round, date: Date(), storedHistory: storedHistory,
        stages: modified.stages, sentTranscript: modified.history, instructions: setup.instructions,
        toolDefinitions: setup.toolDefinitions, generationOptions: request.generationOptions,
        contextOptions: request.contextOptions, schema: schema, output: [], usage: .zero,
        notes: setup.resolution.notes + recoveryNotes + context.notes, outcome: .completed)

      let output: GenerationOutput
      do {
        try CapabilityCheck.check(request, against: model.capabilities)
        output = try await generate(
          model: model, request: request, onEvent: Self.progressReporter(ledger, onProgress))
      } catch {
        if let overflow = await ContextOverflowRecovery.overflow(
          after: error, request: request, modifiers: modifiers, model: model)
        {
          state.withLock { $0.contextOverflow = overflow }
          if retryingAfter == nil {
            retryingAfter = overflow
            continue
          }
        }
        record.outcome = (error is CancellationError || Task.isCancelled) ? .cancelled : .failed("\(error)")
        publish(record)
        throw error
      }
      record.output = output.entries
      record.usage = output.usage
      publish(record)
      var result = output
      result.committedHistory = modified.committed
      return result
    }
  }

  /// Turns the assembler's state into progress for a streaming caller: the
  /// turn's entries so far plus the generation's partial entries.
  private static func progressReporter(
    _ ledger: TurnLedger, _ onProgress: (@Sendable (TurnProgress) -> Void)?
  ) -> (@Sendable (GenerationAssembler) -> Void)? {
    guard let onProgress else { return nil }
    let entriesBefore = ledger.newEntries
    let usageBefore = ledger.usage
    return { assembler in
      onProgress(
        TurnProgress(
          entries: entriesBefore + assembler.entries(partial: true), text: assembler.responseText,
          usage: usageBefore + assembler.usage))
    }
  }

  /// What one generation produced.
  struct GenerationOutput: Sendable {
    var entries: [Transcript.Entry]
    var toolCalls: [GenerationAssembler.ToolCallDraft]
    var responseText: String
    var usage: GenerationUsage
    /// The history a modifier committed before the generation, if one did.
    var committedHistory: Transcript?
  }

  /// Runs the executor for one generation and assembles its events as they
  /// are sent. The executor runs in the caller's task, so cancelling the turn
  /// cancels it; events are applied in `send`, without a hop to another task.
  private func generate<Model: LanguageModel>(
    model: Model, request: LanguageModelExecutorGenerationRequest,
    onEvent: (@Sendable (GenerationAssembler) -> Void)?
  ) async throws -> GenerationOutput {
    let executor = try executors.executor(for: model)
    let assembler = Mutex(GenerationAssembler())
    let channel = LanguageModelExecutorGenerationChannel { event in
      assembler.withLock { assembler in
        assembler.apply(event)
        onEvent?(assembler)
      }
    }
    try await executor.respond(to: request, model: model, streamingInto: channel)
    try Task.checkCancellation()
    return assembler.withLock { assembler in
      GenerationOutput(
        entries: assembler.entries(partial: false), toolCalls: assembler.toolCallDrafts,
        responseText: assembler.responseText, usage: assembler.usage)
    }
  }
}
