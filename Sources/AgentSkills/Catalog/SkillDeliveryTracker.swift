import ModelSession

/// Looks at the history the model is about to see and records which prompt
/// skills' bodies are in it, so the activation tool does not deliver a body
/// twice while it is still visible, and delivers it again once a history
/// modifier has dropped it. It never changes the history.
///
/// `Skills` adds it as the innermost modifier, so it sees the final history.
struct SkillDeliveryTracker: DynamicProfileModifier {
  let toolName: String
  /// Each prompt skill's name and the text its activation delivers.
  let promptBodies: [(name: String, text: String)]
  let activations: SkillActivations

  var name: String { "skills" }

  func transformHistory(_ history: Transcript, in context: ProfileModifierContext) async throws -> Transcript
  {
    var deliveredTexts: Set<String> = []
    for entry in history {
      if case .toolOutput(let output) = entry, output.toolName == toolName {
        deliveredTexts.insert(output.segments.joinedText)
      }
    }
    let visible = promptBodies.filter { deliveredTexts.contains($0.text) }.map(\.name)
    await activations.setLoaded(Set(visible))
    return history
  }
}
