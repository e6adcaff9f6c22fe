import ModelSession

/// What the activation tool answers: a prompt skill's body, which must survive
/// compaction (retained context keyed by the skill), or a short message.
enum SkillToolReply: RetainableToolOutput {
  /// A prompt skill's body.
  case body(skill: String, Prompt)
  /// Anything else: activation of an instructions skill, a refusal, an unknown name.
  case message(String)

  /// The key of a prompt skill's body: `skill:` and its name.
  static func retainedKey(forSkill name: String) -> String { keyPrefix + name }

  /// The skill named by a retained-context key, or `nil` for another key.
  static func skillName(forRetainedKey key: String) -> String? {
    key.hasPrefix(keyPrefix) ? String(key.dropFirst(keyPrefix.count)) : nil
  }

  private static let keyPrefix = "skill:"

  var promptRepresentation: Prompt {
    switch self {
    case .body(_, let prompt): prompt
    case .message(let text): Prompt(text)
    }
  }

  var retainedContext: RetainedContext? {
    guard case .body(let skill, let prompt) = self else { return nil }
    return RetainedContext(key: Self.retainedKey(forSkill: skill), content: prompt)
  }
}
