/// What `Skills` remembers between generations, kept in the session's
/// `SkillActivations` (the one value that lives as long as the conversation).
struct SkillDeliveryState: Sendable {
  /// The instructions skills that were active at the previous generation, to
  /// tell when the instructions change.
  var previousInstructionSkills: Set<String>?
  /// The prompt skills the app activated whose delivery is not yet in the
  /// stored transcript: name to the id of the call that delivered it.
  var pendingDeliveries: [String: String] = [:]
  /// The catalog of the previous generation: each skill the model may
  /// activate, name to description, to tell when a reloaded library changed it.
  var previousCatalog: [String: String]?
}

extension SkillActivations {
  /// Records the active instructions skills of this generation and returns
  /// those of the previous one (`nil` at the first).
  func exchangeInstructionSkills(_ names: Set<String>) -> Set<String>? {
    defer { delivery.previousInstructionSkills = names }
    return delivery.previousInstructionSkills
  }

  /// Records the catalog of this generation (name to description) and
  /// returns that of the previous one (`nil` at the first).
  func exchangeCatalog(_ catalog: [String: String]) -> [String: String]? {
    defer { delivery.previousCatalog = catalog }
    return delivery.previousCatalog
  }

  /// The app's deliveries not yet seen in the stored transcript (see `SkillTurnActivation`).
  var pendingDeliveries: [String: String] { delivery.pendingDeliveries }

  /// Records (or, with `nil`, forgets) the call that delivered a prompt skill the app activated.
  func setPendingDelivery(_ callID: String?, for name: String) {
    delivery.pendingDeliveries[name] = callID
  }
}
