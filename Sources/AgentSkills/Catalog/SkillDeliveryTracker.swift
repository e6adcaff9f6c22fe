import ModelSession

/// Looks at the history the model is about to see and records which prompt
/// skills' bodies are in it (``SkillActivations/loadedSkillNames``), so the
/// activation tool does not deliver a body twice while it is still visible,
/// and delivers it again once a history modifier has dropped it. It never
/// changes the history.
///
/// A body is recognized by the retained-context key the activation tool
/// marks it with (`skill:` and the name), so a copy a history modifier put
/// back after a cut counts as well.
///
/// `Skills` adds it as the innermost modifier, so it sees the final history.
struct SkillDeliveryTracker: DynamicProfileModifier {
  let toolName: String
  /// The names of the prompt skills of the catalog.
  let promptSkillNames: Set<String>
  let activations: SkillActivations

  var name: String { "skills" }

  func transformHistory(_ history: Transcript, in context: ProfileModifierContext) async throws -> Transcript
  {
    var loaded: Set<String> = []
    for entry in history {
      guard case .toolOutput(let output) = entry, output.toolName == toolName,
        let key = output.retainedContextKey, let skill = SkillToolReply.skillName(forRetainedKey: key),
        promptSkillNames.contains(skill)
      else { continue }
      loaded.insert(skill)
    }
    activations.setLoaded(loaded)
    return history
  }
}
