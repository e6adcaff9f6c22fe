import ModelSession

/// The tool `Skills` adds: the model calls it with a skill's name to load
/// (or, for skills that allow it, unload) the skill.
///
/// Its name, description and schema depend only on the list of skills, never
/// on which are active, so activating a skill does not change the tool
/// definitions (which would cost a prompt-cache miss on every activation).
struct SkillActivationTool: Tool {
  let name: String
  let description: String
  let parameters: GenerationSchema
  let skillsByName: [String: Skill]
  let activations: SkillActivations

  init(name: String, description: String, skills: [Skill], activations: SkillActivations) throws {
    self.name = name
    self.description = description
    self.activations = activations
    skillsByName = Dictionary(skills.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    parameters = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "SkillArguments",
        properties: [
          DynamicGenerationSchema.Property(
            name: "skill", description: "The name of the skill",
            schema: DynamicGenerationSchema(name: "SkillName", anyOf: skills.map(\.name).sorted()))
        ]),
      dependencies: [])
  }

  func call(arguments: GeneratedContent) async throws -> SkillToolReply {
    let requested = try arguments.value(String.self, forProperty: "skill")
    guard let skill = skillsByName[requested] else {
      let names = skillsByName.keys.sorted().joined(separator: ", ")
      return .message("There is no skill named \"\(requested)\". Available skills: \(names).")
    }
    switch skill.content {
    case .prompt(let body):
      guard activations.markLoaded(skill.name) else {
        return .message(
          "The skill \"\(skill.name)\" is already loaded earlier in this conversation; follow it from there.")
      }
      try await skill.onActivate?()
      return .body(skill: skill.name, SkillResourceListing.promptDelivery(skill, body: body))
    case .instructions(_, let allowsDeactivation, _):
      if activations.activate(skill.name) {
        try await skill.onActivate?()
        return .message(
          SkillResourceListing.instructionsActivation(skill, message: Self.activatedMessage(skill.name)).text)
      }
      guard allowsDeactivation else {
        return .message(
          "The skill \"\(skill.name)\" is already active and cannot be deactivated; nothing changed.")
      }
      guard activations.deactivate(skill.name) else {
        return .message("The skill \"\(skill.name)\" changed state meanwhile; nothing changed.")
      }
      try await skill.onDeactivate?()
      return .message(Self.deactivatedMessage(skill.name))
    }
  }

  /// What activating an instructions skill answers (the companion package's words).
  static func activatedMessage(_ name: String) -> String { "Successfully activated skill: \(name)" }

  /// What deactivating an instructions skill answers (the companion package's words).
  static func deactivatedMessage(_ name: String) -> String { "Successfully deactivated skill: \(name)" }
}
