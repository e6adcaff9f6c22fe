/// The profile evaluated for one round of a turn: the tools by name, their
/// definitions, and the instructions entry the request starts with.
struct RoundSetup {
  /// The evaluated profile: instructions, tools, modifiers, settings, notes.
  var resolution: ProfileResolution
  /// The tools, by name.
  var toolsByName: [String: any Tool]
  /// The tools' definitions, in the profile's order.
  var toolDefinitions: [Transcript.ToolDefinition]
  /// The instructions entry, or `nil` when the profile has neither instructions nor tools.
  var instructions: Transcript.Instructions?

  /// The modifiers in the order they apply: outside-in, the one written last first.
  var modifiersInApplicationOrder: [any DynamicProfileModifier] {
    resolution.modifiers.reversed()
  }

  /// Evaluates `profile` for `turn`; the instructions entry gets `instructionsID`.
  /// Throws when two tools share a name.
  static func resolve(
    _ profile: any DynamicProfile, instructionsID: String, turn: ProfileTurn? = nil
  ) async throws -> RoundSetup {
    var resolution = ProfileResolution()
    resolution.turn = turn
    try await profile.resolve(into: &resolution)
    return try RoundSetup(resolution: resolution, instructionsID: instructionsID)
  }

  /// Builds the setup of an evaluated profile.
  init(resolution: ProfileResolution, instructionsID: String) throws {
    self.resolution = resolution
    var byName: [String: any Tool] = [:]
    for tool in resolution.tools {
      guard byName[tool.name] == nil else {
        throw LanguageModelSession.SessionError.duplicateToolName(tool.name)
      }
      byName[tool.name] = tool
    }
    toolsByName = byName
    toolDefinitions = resolution.tools.map { Transcript.ToolDefinition(tool: $0) }
    if !resolution.instructionSegments.isEmpty || !toolDefinitions.isEmpty {
      instructions = Transcript.Instructions(
        id: instructionsID, segments: resolution.instructionSegments, toolDefinitions: toolDefinitions)
    }
  }

  /// The generation options of round `round` of a turn: the prompt's, with
  /// the profile's temperature where the prompt sets none. `.required` tool
  /// calling holds for the first round only; the rounds after the tools'
  /// outputs are `.allowed`, so that the model can answer and the tool loop
  /// can end.
  func generationOptions(for prompt: Transcript.Prompt, round: Int) -> GenerationOptions {
    var options = prompt.options
    if round > 0, options.toolCallingMode == .required { options.toolCallingMode = .allowed }
    if options.temperature == nil { options.temperature = resolution.temperature }
    return options
  }
}
