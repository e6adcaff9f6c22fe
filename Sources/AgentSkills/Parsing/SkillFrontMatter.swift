/// The validated YAML front matter of a `SKILL.md` file.
///
/// Field rules follow the Agent Skills specification. ContextKit's own settings
/// live under `metadata`, so that a skill stays valid for every other tool:
/// see ``activation`` and ``allowsDeactivation``. ``allowsModelInvocation``
/// reads `disable-model-invocation`, the key other agents read, at the top
/// level or under `metadata`.
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
  /// Whether the model may activate the skill itself: `false` when the front
  /// matter says `disable-model-invocation: true` (at the top level, as other
  /// agents write it, or as `metadata.disable-model-invocation: "true"`, which
  /// keeps the skill valid for every Agent Skills reader). Such a skill is left
  /// out of the catalog and of the activation tool; the user (`/name` in a
  /// prompt) and the app can still activate it.
  public var allowsModelInvocation: Bool

  /// Creates front matter from its fields.
  public init(
    name: String, description: String, license: String? = nil, compatibility: String? = nil,
    metadata: [String: String] = [:], allowedTools: [String] = [], allowsModelInvocation: Bool = true
  ) {
    self.name = name
    self.description = description
    self.license = license
    self.compatibility = compatibility
    self.metadata = metadata
    self.allowedTools = allowedTools
    self.allowsModelInvocation = allowsModelInvocation
  }

  private enum CodingKeys: String, CodingKey {
    case name, description, license, compatibility, metadata, allowedTools, allowsModelInvocation
  }

  /// Reads front matter; `allowsModelInvocation` may be missing (it reads as `true`).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    description = try container.decode(String.self, forKey: .description)
    license = try container.decodeIfPresent(String.self, forKey: .license)
    compatibility = try container.decodeIfPresent(String.self, forKey: .compatibility)
    metadata = try container.decode([String: String].self, forKey: .metadata)
    allowedTools = try container.decode([String].self, forKey: .allowedTools)
    allowsModelInvocation = try container.decodeIfPresent(Bool.self, forKey: .allowsModelInvocation) ?? true
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
