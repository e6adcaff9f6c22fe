/// Refuses a request that needs a capability the model does not declare,
/// before the executor sees it.
enum CapabilityCheck {
  /// Throws `LanguageModelError.unsupportedCapability` when `request` offers
  /// tools, asks for a schema, or holds an image anywhere in its transcript
  /// (not only in the newest entry) and `capabilities` lacks what that needs.
  static func check(
    _ request: LanguageModelExecutorGenerationRequest, against capabilities: LanguageModelCapabilities
  ) throws {
    if !request.enabledToolDefinitions.isEmpty, !capabilities.contains(.toolCalling) {
      throw refusal(.toolCalling, "the session offers tools but the model does not declare toolCalling")
    }
    if request.schema != nil, !capabilities.contains(.guidedGeneration) {
      throw refusal(
        .guidedGeneration, "a schema was requested but the model does not declare guidedGeneration")
    }
    if !capabilities.contains(.vision), let index = firstImageEntryIndex(in: request.transcript) {
      throw refusal(
        .vision, "the transcript holds an image (entry \(index)) but the model does not declare vision")
    }
  }

  /// The index of the first entry that holds an image attachment.
  static func firstImageEntryIndex(in transcript: Transcript) -> Int? {
    transcript.firstIndex { entry in
      entry.segments.contains { if case .attachment = $0 { true } else { false } }
    }
  }

  private static func refusal(
    _ capability: LanguageModelCapabilities.Capability, _ reason: String
  ) -> LanguageModelError {
    .unsupportedCapability(
      LanguageModelError.UnsupportedCapability(capability: capability, debugDescription: reason))
  }
}
