import ModelSession

/// The validated YAML front matter of a `SKILL.md` file.
///
/// Field rules follow the Agent Skills specification. ContextKit's own settings
/// live under `metadata`, so that a skill stays valid for every other tool:
/// see ``activation`` and ``allowsDeactivation``. ``allowsModelInvocation``
/// reads `disable-model-invocation`, the key other agents read, at the top
/// level or under `metadata`.
public struct SkillFrontMatter: Sendable, Hashable, Codable {
  /// The skill's name as the front matter writes it. The Agent Skills rules
  /// (1–64 characters of `a-z`, `0-9` and `-`, equal to the folder's name) are
  /// warnings in lenient mode; without a usable name, the folder's name.
  public var name: String
  /// What the skill does and when to use it (the format allows 1–1,024
  /// characters; a longer one loads with a warning in lenient mode); the model
  /// sees it in the catalog.
  public var description: String
  /// The license the skill is shared under, if given.
  public var license: String?
  /// What the skill needs from its environment (1–500 characters), if given.
  public var compatibility: String?
  /// Free-form string keys and values: each `metadata` entry whose value is a
  /// scalar, as text (a number or boolean as written).
  public var metadata: [String: String]
  /// Every `metadata` entry as YAML reads it, nested mappings (in their key
  /// order) and lists included: `metadata: {openclaw: {emoji: "🦞"}}` gives
  /// `metadataValues["openclaw"]` as a structure. The Agent Skills format wants
  /// string values only; lenient loading keeps the others here with a warning.
  ///
  /// ```swift
  /// let tags = try skill.frontMatter.metadataValues["tags"]?.value([String].self)
  /// ```
  public var metadataValues: [String: GeneratedContent]
  /// Tools the skill may use, from the space-separated `allowed-tools` field
  /// (or, with a warning in lenient mode, a YAML list of names).
  public var allowedTools: [String]
  /// Whether the model may activate the skill itself: `false` when the front
  /// matter says `disable-model-invocation: true` (at the top level, as other
  /// agents write it, or as `metadata.disable-model-invocation: "true"`, which
  /// keeps the skill valid for every Agent Skills reader). Such a skill is left
  /// out of the catalog and of the activation tool; the user (`/name` in a
  /// prompt) and the app can still activate it.
  public var allowsModelInvocation: Bool

  /// Creates front matter from its fields; `metadataValues` defaults to `metadata`'s strings.
  public init(
    name: String, description: String, license: String? = nil, compatibility: String? = nil,
    metadata: [String: String] = [:], metadataValues: [String: GeneratedContent]? = nil,
    allowedTools: [String] = [], allowsModelInvocation: Bool = true
  ) {
    self.name = name
    self.description = description
    self.license = license
    self.compatibility = compatibility
    self.metadata = metadata
    self.metadataValues = metadataValues ?? metadata.mapValues { GeneratedContent(kind: .string($0)) }
    self.allowedTools = allowedTools
    self.allowsModelInvocation = allowsModelInvocation
  }

  private enum CodingKeys: String, CodingKey {
    case name, description, license, compatibility, metadata, metadataValues, allowedTools
    case allowsModelInvocation
  }

  /// Reads front matter; `allowsModelInvocation` may be missing (it reads as
  /// `true`), and `metadataValues` (it reads as `metadata`'s strings).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    description = try container.decode(String.self, forKey: .description)
    license = try container.decodeIfPresent(String.self, forKey: .license)
    compatibility = try container.decodeIfPresent(String.self, forKey: .compatibility)
    metadata = try container.decode([String: String].self, forKey: .metadata)
    metadataValues =
      try container.decodeIfPresent([String: GeneratedContent].self, forKey: .metadataValues)
      ?? metadata.mapValues { GeneratedContent(kind: .string($0)) }
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
