/// What `Skills` remembers between generations, kept in the session's
/// `SkillActivations` (the one value that lives as long as the conversation).
struct SkillDeliveryState: Sendable {
  /// Prompt skills whose body is in the history the model last saw, or that
  /// were delivered since.
  var visiblePromptSkills: Set<String> = []
  /// The instructions skills that were active at the previous generation, to
  /// tell when the instructions change.
  var previousInstructionSkills: Set<String>?
}

extension SkillActivations {
  /// Whether a prompt skill's body is still in the visible history.
  func isPromptSkillVisible(_ name: String) -> Bool {
    delivery.visiblePromptSkills.contains(name)
  }

  /// Records that a prompt skill's body was just delivered; returns `false`
  /// when it already was visible (a second, parallel call).
  func markPromptSkillDelivered(_ name: String) -> Bool {
    delivery.visiblePromptSkills.insert(name).inserted
  }

  /// Replaces the set of visible prompt skills, after looking at the history.
  func setVisiblePromptSkills(_ names: Set<String>) {
    delivery.visiblePromptSkills = names
  }

  /// Records the active instructions skills of this generation and returns
  /// those of the previous one (`nil` at the first).
  func exchangeInstructionSkills(_ names: Set<String>) -> Set<String>? {
    defer { delivery.previousInstructionSkills = names }
    return delivery.previousInstructionSkills
  }
}
