/// Runs a round's history modifiers and keeps what each one produced, for the
/// generation record.
enum ModifierPipeline {
  /// The history the model sees and the stage after each modifier.
  struct Result {
    /// What the last modifier produced: the transcript sent.
    var history: Transcript
    /// The history after each modifier, in the order they ran.
    var stages: [GenerationRecord.Stage]
    /// The history the last modifier that asked to commit returned
    /// (``ProfileModifierContext/commitHistory()``); `nil` when none asked.
    var committed: Transcript?
  }

  /// Tells every modifier a generation is coming, in `modifiers`' order.
  static func prepare(
    _ modifiers: [any DynamicProfileModifier], in context: ProfileModifierContext
  )
    async throws
  {
    for modifier in modifiers {
      try await modifier.willGenerate(in: context)
    }
  }

  /// Applies `modifiers` in order to `stored`.
  static func apply(
    _ modifiers: [any DynamicProfileModifier], to stored: Transcript, in context: ProfileModifierContext
  ) async throws -> Result {
    var history = stored
    var stages: [GenerationRecord.Stage] = []
    var committed: Transcript?
    stages.reserveCapacity(modifiers.count)
    _ = context.takeCommitRequest()
    for modifier in modifiers {
      history = try await modifier.transformHistory(history, in: context)
      stages.append(GenerationRecord.Stage(name: modifier.name, transcript: history))
      if context.takeCommitRequest() { committed = history }
    }
    return Result(history: history, stages: stages, committed: committed)
  }
}
