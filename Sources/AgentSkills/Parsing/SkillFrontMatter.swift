/// The validated YAML front matter of a `SKILL.md` file.
///
/// Field rules follow the Agent Skills specification. ContextKit's own settings
/// live under `metadata`, so that a skill stays valid for every other tool:
/// see ``activation`` and ``allowsDeactivation``.
public struct SkillFrontMatter: Sendable, Hashable, Codable {
  /// The skill's name: 1–64 characters of `a-z`, `0-9` and `-`, equal to its folder's name.
  public var name: String
  /// What the skill does and when to use it (1–1,024 characters); the model sees it in the catalog.
  public var description: String
  /// The license the skill is shared under, if given.
  public var license: String?
  /// What the skill needs from its environment (1–500 characters), if given.
  public var compatibility: String?
  /// Free-form string keys and values.
  public var metadata: [String: String]
  /// Tools the skill may use, from the space-separated `allowed-tools` field.
  public var allowedTools: [String]

  /// Creates front matter from its fields.
  public init(
    name: String, description: String, license: String? = nil, compatibility: String? = nil,
    metadata: [String: String] = [:], allowedTools: [String] = []
  ) {
    self.name = name
    self.description = description
    self.license = license
    self.compatibility = compatibility
    self.metadata = metadata
    self.allowedTools = allowedTools
  }

  /// `metadata.activation`: how the skill reaches the model; `prompt` when absent or not recognised.
  public var activation: SkillActivationStyle {
    metadata["activation"].flatMap(SkillActivationStyle.init(rawValue:)) ?? .prompt
  }

  /// `metadata.allows-deactivation == "true"` on an instructions skill: whether the model
  /// may switch it off again. Always `false` for prompt skills.
  public var allowsDeactivation: Bool {
    activation == .instructions && metadata["allows-deactivation"] == "true"
  }
}
