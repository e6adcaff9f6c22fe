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
    let (stored, turnIndex) = try state.withLock { state -> (Transcript, Int) in
      guard !state.isResponding else { throw SessionError.concurrentRequests }
      state.isResponding = true
      return (state.transcript, state.turnCount)
    }
    do {
      var result = try await generateTurn(
        stored: stored, prompt: prompt, schema: schema, turnIndex: turnIndex, onProgress: onProgress)
      if let schema {
        // Validated before committing: a response that breaks the schema is an error, and the turn is undone.
        let content = try Self.structuredContent(result.turn.finalText, schema: schema)
        try acceptContent?(content)
        result.turn.structuredContent = content
      }
      state.withLock { state in
        state.transcript = result.transcript
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

  private func generateTurn(
    stored: Transcript, prompt: Transcript.Prompt, schema: GenerationSchema?, turnIndex: Int,
    onProgress: (@Sendable (TurnProgress) -> Void)?
  ) async throws -> (turn: TurnResult, transcript: Transcript) {
    var instructionsID = UUID().uuidString
    var conversation = stored.entries[...]
    if case .instructions(let existing) = conversation.first {
      instructionsID = existing.id
      conversation = conversation.dropFirst()
    }
    var newEntries: [Transcript.Entry] = [.prompt(prompt)]
    var usage = GenerationUsage.zero
    var toolRounds = 0
    var latestInstructions: Transcript.Instructions?

    for round in 0... {
      try Task.checkCancellation()
      var resolution = ProfileResolution()
      try await profile.resolve(into: &resolution)
      let toolsByName = try Self.index(resolution.tools)
      let toolDefinitions = resolution.tools.map { Transcript.ToolDefinition(tool: $0) }
      var instructions: Transcript.Instructions?
      if !resolution.instructionSegments.isEmpty || !toolDefinitions.isEmpty {
        instructions = Transcript.Instructions(
          id: instructionsID, segments: resolution.instructionSegments, toolDefinitions: toolDefinitions)
      }
      latestInstructions = instructions

      let requestID = UUID()
      let context = ProfileModifierContext(
        turnIndex: turnIndex, round: round, toolDefinitions: toolDefinitions, requestID: requestID.uuidString)
      let modifiers = resolution.modifiers.reversed()
      for modifier in modifiers {
        try await modifier.willGenerate(in: context)
      }
      var storedHistory = Transcript(entries: conversation)
      storedHistory.append(contentsOf: newEntries)
      if let instructions { storedHistory.insert(.instructions(instructions), at: 0) }
      var history = storedHistory
      var stages: [GenerationRecord.Stage] = []
      for modifier in modifiers {
        history = try await modifier.transformHistory(history, in: context)
        stages.append(GenerationRecord.Stage(name: modifier.name, transcript: history))
      }

      var options = prompt.options
      if options.temperature == nil { options.temperature = resolution.temperature }
      let request = LanguageModelExecutorGenerationRequest(
        id: requestID, transcript: history, enabledToolDefinitions: toolDefinitions, schema: schema,
        generationOptions: options, contextOptions: ContextOptions(reasoningLevel: resolution.reasoningLevel))
      var record = GenerationRecord(
        requestID: requestID, turnIndex: turnIndex, round: round, date: Date(), storedHistory: storedHistory,
        stages: stages, sentTranscript: history, instructions: instructions, toolDefinitions: toolDefinitions,
        generationOptions: options, contextOptions: request.contextOptions, schema: schema, output: [],
        usage: .zero, notes: resolution.notes + context.notes, outcome: .completed)

      let output: GenerationOutput
      do {
        try checkCapabilities(of: request)
        var onEvent: (@Sendable (GenerationAssembler) -> Void)?
        if let onProgress {
          let entriesBefore = newEntries
          let usageBefore = usage
          onEvent = { assembler in
            onProgress(
              TurnProgress(
                entries: entriesBefore + assembler.entries(partial: true), text: assembler.responseText,
                usage: usageBefore + assembler.usage))
          }
        }
        output = try await generate(request: request, onEvent: onEvent)
      } catch {
        record.outcome = (error is CancellationError || Task.isCancelled) ? .cancelled : .failed("\(error)")
        publish(record)
        throw error
      }
      let produced = output.entries
      record.output = produced
      record.usage = output.usage
      publish(record)
      newEntries.append(contentsOf: produced)
      usage += output.usage

      let calls = output.toolCalls
      if calls.isEmpty {
        var transcript = Transcript(entries: conversation)
        transcript.append(contentsOf: newEntries)
        if let latestInstructions { transcript.insert(.instructions(latestInstructions), at: 0) }
        return (TurnResult(entries: newEntries, finalText: output.responseText, usage: usage), transcript)
      }
      guard toolRounds < maximumToolRounds else {
        throw SessionError.toolRoundLimitExceeded(limit: maximumToolRounds)
      }
      toolRounds += 1
      let outputs = try await ToolRunner(toolsByName: toolsByName).run(calls)
      newEntries.append(contentsOf: outputs.map(Transcript.Entry.toolOutput))
      onProgress?(TurnProgress(entries: newEntries, text: "", usage: usage))
    }
    // `for round in 0...` only ends by returning or throwing.
    throw CancellationError()
  }

  private static func index(_ tools: [any Tool]) throws -> [String: any Tool] {
    var byName: [String: any Tool] = [:]
    for tool in tools {
      guard byName[tool.name] == nil else { throw SessionError.duplicateToolName(tool.name) }
      byName[tool.name] = tool
    }
    return byName
  }

  /// Refuses a request that needs a capability the model does not declare.
  private func checkCapabilities(of request: LanguageModelExecutorGenerationRequest) throws {
    let capabilities = model.capabilities
    func refuse(_ capability: LanguageModelCapabilities.Capability, _ reason: String) -> LanguageModelError {
      .unsupportedCapability(
        LanguageModelError.UnsupportedCapability(capability: capability, debugDescription: reason))
    }
    if !request.enabledToolDefinitions.isEmpty, !capabilities.contains(.toolCalling) {
      throw refuse(.toolCalling, "the session offers tools but the model does not declare toolCalling")
    }
    if request.schema != nil, !capabilities.contains(.guidedGeneration) {
      throw refuse(
        .guidedGeneration, "a schema was requested but the model does not declare guidedGeneration")
    }
    if !capabilities.contains(.vision) {
      let hasImage = request.transcript.contains { entry in
        entry.segments.contains { if case .attachment = $0 { true } else { false } }
      }
      if hasImage {
        throw refuse(.vision, "the transcript holds an image but the model does not declare vision")
      }
    }
  }

  /// What one generation produced.
  struct GenerationOutput: Sendable {
    var entries: [Transcript.Entry]
    var toolCalls: [GenerationAssembler.ToolCallDraft]
    var responseText: String
    var usage: GenerationUsage
  }

  /// Runs the executor for one generation and assembles its events as they
  /// are sent. The executor runs in the caller's task, so cancelling the turn
  /// cancels it; events are applied in `send`, without a hop to another task.
  private func generate(
    request: LanguageModelExecutorGenerationRequest,
    onEvent: (@Sendable (GenerationAssembler) -> Void)?
  ) async throws -> GenerationOutput {
    try await generate(model: model, request: request, onEvent: onEvent)
  }

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
