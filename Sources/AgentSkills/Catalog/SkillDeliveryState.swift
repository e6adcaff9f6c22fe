/// What `Skills` remembers between generations, kept in the session's
/// `SkillActivations` (the one value that lives as long as the conversation).
struct SkillDeliveryState: Sendable {
  /// The instructions skills that were active at the previous generation, to
  /// tell when the instructions change.
  var previousInstructionSkills: Set<String>?
}

extension SkillActivations {
  /// Records the active instructions skills of this generation and returns
  /// those of the previous one (`nil` at the first).
  func exchangeInstructionSkills(_ names: Set<String>) -> Set<String>? {
    defer { delivery.previousInstructionSkills = names }
    return delivery.previousInstructionSkills
  }
}
