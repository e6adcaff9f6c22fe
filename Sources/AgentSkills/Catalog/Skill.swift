import ModelSession

/// A named, described block of guidance that the model loads only when it
/// needs it.
///
/// Until the model activates a skill, only its name and description sit in
/// the prompt. There are two flavours, and the choice is a prompt-cache
/// decision (see docs/skills.md):
///
/// - **prompt**: activation returns the body as the activation tool's output.
///   The conversation's prefix is untouched, so the prompt cache is kept.
///   Prefer it for anything large or needed once.
/// - **instructions**: activation records the skill as active, and from the
///   next generation its body joins the instructions. That rewrites the prefix
///   (a cache miss), so keep such skills short, for guidance that must bind
///   across many turns. They may allow deactivation, and may carry tools that
///   are offered only while they are active.
///
/// ```swift
/// Skill(name: "swift-style", description: "The team's Swift style rules", prompt: styleGuide)
/// Skill(name: "release-tone", description: "House tone for release notes",
///       instructions: "Write in second person, present tense.", allowsDeactivation: true)
/// ```
public struct Skill: Sendable {
  /// How the skill's body reaches the model.
  public enum Content: Sendable {
    /// Delivered as the activation tool's output.
    case prompt(Prompt)
    /// Joined to the instructions while active; `tools` are offered only while active.
    case instructions(Instructions, allowsDeactivation: Bool, tools: [any Tool])
  }

  /// The skill's name: what the model passes to the activation tool.
  public var name: String
  /// What the skill is for: the model reads it to decide when to activate it.
  public var description: String
  /// The body and how it is delivered.
  public var content: Content
  /// Runs when the catalog activates the skill: when the model calls the
  /// activation tool for it, when the user names it as `/name` in a prompt,
  /// and when it delivers the body of a prompt skill the app activated.
  public var onActivate: (@Sendable () async throws -> Void)?
  /// Runs when the model deactivates the skill.
  public var onDeactivate: (@Sendable () async throws -> Void)?
  /// Whether the model may activate the skill itself (`true` unless set).
  /// A skill that does not allow it is left out of the catalog and of the
  /// activation tool; the user (`/name` in a prompt, when the catalog allows
  /// it) and the app (through `SkillActivations`) can still activate it. A
  /// loaded skill takes it from `disable-model-invocation` in its front matter.
  public var allowsModelInvocation = true
  /// The folder the skill was loaded from, or `nil` for a skill written in code.
  /// Its resources are listed when the skill is activated, and the model reads
  /// them with the `read_skill_resource` tool.
  public var source: LoadedSkill?

  /// A prompt-flavour skill: activation delivers `prompt` as the tool's output.
  public init(
    name: String, description: String, prompt: some PromptRepresentable,
    onActivate: (@Sendable () async throws -> Void)? = nil
  ) {
    self.name = name
    self.description = description
    content = .prompt(prompt.promptRepresentation)
    self.onActivate = onActivate
    onDeactivate = nil
  }

  /// A prompt-flavour skill built with a prompt builder.
  public init(
    name: String, description: String, onActivate: (@Sendable () async throws -> Void)? = nil,
    @PromptBuilder prompt: () throws -> Prompt
  ) rethrows {
    self.init(name: name, description: description, prompt: try prompt(), onActivate: onActivate)
  }

  /// An instructions-flavour skill: while active, `instructions` join the
  /// session's instructions and `tools` are offered to the model.
  public init(
    name: String, description: String, instructions: some InstructionsRepresentable,
    allowsDeactivation: Bool = false, tools: [any Tool] = [],
    onActivate: (@Sendable () async throws -> Void)? = nil,
    onDeactivate: (@Sendable () async throws -> Void)? = nil
  ) {
    self.name = name
    self.description = description
    content = .instructions(
      instructions.instructionsRepresentation, allowsDeactivation: allowsDeactivation, tools: tools)
    self.onActivate = onActivate
    self.onDeactivate = onDeactivate
  }

  /// An instructions-flavour skill whose body is built like a profile's:
  /// instructions and the tools that come with them.
  ///
  /// ```swift
  /// Skill(name: "calendar", description: "Reads and edits the user's calendar") {
  ///   Instructions("Confirm every change before you make it.")
  ///   CalendarTool()
  /// }
  /// ```
  ///
  /// The tools are offered to the model while the skill is active, after any
  /// given in `tools`; they add no text to the instructions.
  public init(
    name: String, description: String, allowsDeactivation: Bool = false, tools: [any Tool] = [],
    onActivate: (@Sendable () async throws -> Void)? = nil,
    onDeactivate: (@Sendable () async throws -> Void)? = nil,
    @SkillBodyBuilder body: () throws -> SkillBody
  ) rethrows {
    let body = try body()
    self.init(
      name: name, description: description, instructions: body.instructions,
      allowsDeactivation: allowsDeactivation,
      tools: tools + body.tools, onActivate: onActivate, onDeactivate: onDeactivate)
  }

  /// A skill loaded from disk, in the flavour its `metadata.activation` names.
  public init(loaded skill: LoadedSkill) {
    switch skill.activation {
    case .prompt:
      self.init(name: skill.name, description: skill.description, prompt: skill.body)
    case .instructions:
      self.init(
        name: skill.name, description: skill.description, instructions: skill.body,
        allowsDeactivation: skill.allowsDeactivation)
    }
    source = skill
    allowsModelInvocation = skill.allowsModelInvocation
  }

  /// The same skill, with ``allowsModelInvocation`` set: `false` keeps it out
  /// of the catalog and the activation tool, for the user and the app to activate.
  ///
  /// ```swift
  /// Skill(name: "deploying", description: "Steps to deploy", prompt: steps).allowingModelInvocation(false)
  /// ```
  public func allowingModelInvocation(_ allowed: Bool) -> Skill {
    var skill = self
    skill.allowsModelInvocation = allowed
    return skill
  }

  /// The files the model can be pointed at: the source folder's resources, or none.
  public var resources: [SkillResource] { source?.resources ?? [] }

  /// The companion package's name for ``content``: `.prompt` or
  /// `.instructions`, whose payload reads `allowsDeactivation` by name.
  public var storage: Content { content }

  /// Whether the body joins the instructions (rather than being delivered as a tool output).
  public var isInstructionsSkill: Bool {
    if case .instructions = content { true } else { false }
  }

  /// Whether the model may deactivate the skill (instructions skills only).
  public var allowsDeactivation: Bool {
    if case .instructions(_, let allows, _) = content { allows } else { false }
  }
}

extension SkillsLibrary {
  /// The library's skills, ready to hand to `Skills`, in name order.
  public var skills: [Skill] { loadedSkills.map(Skill.init(loaded:)) }
}

/// Builds a list of skills, with `if`, `if`/`else` and `for`.
@resultBuilder
public enum SkillsBuilder {
  /// Joins the parts in order.
  public static func buildBlock(_ components: [Skill]...) -> [Skill] { components.flatMap { $0 } }
  /// One skill.
  public static func buildExpression(_ expression: Skill) -> [Skill] { [expression] }
  /// Several skills.
  public static func buildExpression(_ expression: [Skill]) -> [Skill] { expression }
  /// An optional skill: none when `nil`.
  public static func buildExpression(_ expression: Skill?) -> [Skill] { expression.map { [$0] } ?? [] }
  /// An `if` without `else`.
  public static func buildOptional(_ component: [Skill]?) -> [Skill] { component ?? [] }
  /// The first branch of an `if`/`else`.
  public static func buildEither(first component: [Skill]) -> [Skill] { component }
  /// The second branch of an `if`/`else`.
  public static func buildEither(second component: [Skill]) -> [Skill] { component }
  /// A `for` loop.
  public static func buildArray(_ components: [[Skill]]) -> [Skill] { components.flatMap { $0 } }
}
