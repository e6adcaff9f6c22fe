import ModelSession

/// A catalog of skills in a profile: a short lead instruction and one block
/// per skill, plus one synthesized tool through which the model activates them.
///
/// ```swift
/// Profile {
///   Instructions("You review pull requests for an iOS team.")
///   Skills(activations: activations) {
///     Skill(name: "swift-style", description: "The team's Swift style rules", prompt: styleGuide)
///     Skill(name: "release-tone", description: "House tone for release notes",
///           instructions: "Write in second person.", allowsDeactivation: true)
///   }
/// }
/// ```
///
/// The catalog reads as the companion package's does, in the order the
/// skills are given:
///
/// ```text
/// If a skill below fits the user's request, silently activate it before responding. Otherwise, …
///
/// Skill: swift-style [on demand]
/// Description: The team's Swift style rules
///
/// Skill: release-tone [active]
/// Write in second person.
/// ```
///
/// A prompt skill is `[on demand]` (calling the tool delivers its body once);
/// an instructions skill is `[inactive]` with its description, or `[active]`
/// with its instructions in place of the description. The text and the
/// tool's definition change only when the list of skills does, or when an
/// instructions skill is activated or deactivated, which rewrites the
/// instructions (a prompt-cache miss from there on); the generation record
/// says so with an `instructionsChanged` note (`instructions skill activated
/// a, b; deactivated c: …`, each list of names sorted). Delivering a prompt
/// skill changes nothing in the instructions.
///
/// Give the catalog a budget in tokens with ``catalogBudget(_:)``: over it,
/// descriptions are shortened, then only names are listed, then skills are
/// left out of the listing (the tool still takes every name), each step
/// reported in a `catalogTrimmed` note. An active skill's instructions count
/// toward the budget, and no step shortens them or leaves them out. The listing then changes only when
/// the full catalog's text does.
///
/// Skills are activated three ways: by the model, through the tool; by the
/// app, through `SkillActivations` (a prompt skill's body is delivered before
/// the next generation); and, when ``slashCommandActivation`` is on, by the
/// user writing `/name` in a prompt. A skill that does not allow model
/// invocation (`disable-model-invocation: true`) is left out of the catalog
/// and the tool's enum, and when no skill allows it, the tool is not offered.
///
/// Use one `SkillActivations` per conversation: it also remembers which prompt
/// skills were delivered.
public struct Skills: DynamicInstructions {
  /// The tool's name when no skill allows deactivation.
  public static let activateToolName = "activate_skill"
  /// The tool's name when some skill allows deactivation.
  public static let toggleToolName = "toggle_skill"
  /// The name of the tool that reads a resource of an activated skill; offered
  /// only when some skill has resources.
  public static let readResourceToolName = "read_skill_resource"
  /// The metadata key of an activation tool call the catalog made itself, for
  /// a skill the user (`/name`) or the app activated; its value is `"user"` or `"app"`.
  public static let activationSourceMetadataKey = "contextkit.skillActivation"

  /// Where activations are recorded.
  public var activations: SkillActivations
  /// The skills, in the order given; a repeated name keeps its first skill.
  public var skills: [Skill]
  /// The tool's name; `activate_skill`, or `toggle_skill` when a skill allows deactivation.
  public var toolName: String
  /// The tool's description; by default it asks the model to activate (or,
  /// when a skill allows it, deactivate) a skill itself when the request
  /// matches, without asking or mentioning it, and, when the catalog has a
  /// prompt skill, says what `[on demand]` means.
  public var toolDescription: String
  /// The lead instruction above the catalog; by default ``defaultLeadInstruction``.
  public var instructions: Instructions
  /// How much of what a history modifier keeps the bodies of prompt skills
  /// may take when they are put back after a cut (see `ContextRetention`): by
  /// default a quarter (of a window, or of a compaction's target), and at
  /// most 5,000 tokens a skill.
  public var retention = ContextRetention()
  /// The most tokens the catalog may take, and what counts them; `nil` (the
  /// default) for no limit. Over budget, the catalog shortens descriptions,
  /// then lists names only, then leaves skills out, and says so in a
  /// `catalogTrimmed` generation note (see ``SkillCatalogBudget``).
  public var catalogBudget: SkillCatalogBudget?
  /// Whether the user can activate a skill by writing `/name` in a prompt
  /// (off by default; see ``slashCommandActivation(_:)``).
  ///
  /// At the first generation of a turn, each skill of the catalog that the
  /// prompt names as `/name` is activated for that generation: an
  /// instructions skill becomes active, a prompt skill's body is delivered
  /// after the prompt. Skills the model may not activate itself count too.
  /// The prompt stays in the transcript as the user wrote it, and a `/name`
  /// that is no skill of the catalog is left alone (a generation note says
  /// so). The grammar: `/` at the start of the text or after whitespace or an
  /// opening bracket or quote, a valid skill name, then the end of the text or
  /// whitespace, optionally after closing punctuation (`Use /reviewing-sql.`
  /// names `reviewing-sql`; `src/reviewing-sql` and `/reviewing-sql.md` do not).
  public var slashCommandActivation = false

  /// The skills the model may activate itself: those in the catalog and the tool's enum.
  var modelInvocableSkills: [Skill] { skills.filter(\.allowsModelInvocation) }

  /// The lead instruction when none is given, the companion package's:
  /// activate a fitting skill silently, otherwise answer without tools.
  public static let defaultLeadInstruction =
    "If a skill below fits the user's request, silently activate it before responding. "
    + "Otherwise, respond normally without calling tools."

  /// The tool's description when none is given (see ``toolDescription``).
  ///
  /// - Parameters:
  ///   - allowsDeactivation: Whether some skill in the catalog allows deactivation.
  ///   - hasOnDemandSkill: Whether the catalog lists a prompt skill.
  public static func defaultToolDescription(allowsDeactivation: Bool, hasOnDemandSkill: Bool) -> String {
    let verb = allowsDeactivation ? "Activate or deactivate" : "Activate"
    var text =
      "\(verb) a skill yourself when the user's request matches its description, and otherwise respond "
      + "normally without calling this tool. Don't ask the user for permission to activate, and don't "
      + "mention activation in your response."
    if hasOnDemandSkill {
      text +=
        " Skills marked [on demand] aren't toggled on or off; calling this tool on one delivers its guidance once."
    }
    return text
  }

  /// Creates a catalog.
  public init(
    activations: SkillActivations, toolName: String? = nil, toolDescription: String? = nil,
    instructions: Instructions? = nil, skills: [Skill]
  ) {
    var seen: Set<String> = []
    let unique = skills.filter { seen.insert($0.name).inserted }
    let toggles = unique.contains { $0.allowsDeactivation && $0.allowsModelInvocation }
    let onDemand = unique.contains { !$0.isInstructionsSkill && $0.allowsModelInvocation }
    self.activations = activations
    self.skills = unique
    self.toolName = toolName ?? (toggles ? Self.toggleToolName : Self.activateToolName)
    self.toolDescription =
      toolDescription ?? Self.defaultToolDescription(allowsDeactivation: toggles, hasOnDemandSkill: onDemand)
    self.instructions = instructions ?? Instructions(Self.defaultLeadInstruction)
  }

  /// Creates a catalog with a builder.
  public init(
    activations: SkillActivations, toolName: String? = nil, toolDescription: String? = nil,
    instructions: Instructions? = nil, @SkillsBuilder skills: () throws -> [Skill]
  ) rethrows {
    self.init(
      activations: activations, toolName: toolName, toolDescription: toolDescription,
      instructions: instructions,
      skills: try skills())
  }

  /// The same catalog, with ``slashCommandActivation`` set.
  ///
  /// ```swift
  /// Profile {
  ///   Skills(activations: activations, skills: library.skills).slashCommandActivation()
  /// }
  /// ```
  public func slashCommandActivation(_ enabled: Bool = true) -> Skills {
    var skills = self
    skills.slashCommandActivation = enabled
    return skills
  }

  /// The catalog, the bodies of active instructions skills, the activation
  /// tool and the tools of active skills, for the activations as they are now.
  /// (The session calls `resolve(into:)`, which also tracks deliveries and notes changes.)
  public var body: ProfileContent {
    get async throws {
      let rendered = try await render(active: Set(activations.activeSkillNames))
      return ProfileContentBuilder.buildBlock(
        ProfileContentBuilder.buildExpression(Instructions(segments: rendered.instructions.segments)),
        ProfileContentBuilder.buildExpression(rendered.tools))
    }
  }

  private struct Rendered {
    var instructions = Instructions(segments: [])
    var tools: [any Tool] = []
    var activeInstructionSkills: Set<String> = []
    var catalog = SkillCatalogListing(text: "", listedSkillNames: [])
  }

  private func render(active: Set<String>) async throws -> Rendered {
    var rendered = Rendered()
    guard !skills.isEmpty else { return rendered }
    let invocable = modelInvocableSkills
    var skillTools: [any Tool] = []
    for skill in skills where active.contains(skill.name) {
      guard case .instructions(_, _, let tools) = skill.content else { continue }
      rendered.activeInstructionSkills.insert(skill.name)
      skillTools.append(contentsOf: tools)
    }
    if !invocable.isEmpty || !rendered.activeInstructionSkills.isEmpty {
      rendered.catalog = try await catalog(active: active)
      rendered.instructions.segments.append(contentsOf: Instructions(rendered.catalog.text).segments)
    }
    if !invocable.isEmpty {
      rendered.tools.append(
        try SkillActivationTool(
          name: toolName, description: toolDescription, skills: invocable, activations: activations))
    }
    if let reader = try SkillResourceTool(skills: skills, activations: activations) {
      rendered.tools.append(reader)
    }
    rendered.tools += skillTools
    return rendered
  }

  /// The full catalog text for a set of active skills, with no budget
  /// applied: what the model reads when the catalog has no budget, or fits in it.
  public func catalogText(active: Set<String>) -> String {
    let lines = catalogLines(active: active)
    return SkillCatalogFitter.text(
      lead: lead, lines: lines, descriptions: lines.map(\.description), toolName: toolName)
  }

  /// The catalog for a set of active skills, fitted in ``catalogBudget``:
  /// exactly what the model reads, the steps taken and the skills left out.
  ///
  /// - Parameter active: The names of the active skills.
  public func catalog(active: Set<String>) async throws -> SkillCatalogListing {
    try await SkillCatalogFitter.fit(
      lead: lead, lines: catalogLines(active: active), toolName: toolName, budget: catalogBudget)
  }

  /// The lead instruction, or none when no skill is the model's to activate
  /// (the catalog then only carries the instructions of active skills).
  private var lead: String {
    modelInvocableSkills.isEmpty ? "" : instructions.text
  }

  /// A copy of the catalog with this budget (`nil` for none).
  ///
  /// - Parameter budget: The most tokens the catalog may take, and what counts them.
  public func catalogBudget(_ budget: SkillCatalogBudget?) -> Skills {
    var copy = self
    copy.catalogBudget = budget
    return copy
  }

  /// One block per skill the model may activate, and one per active
  /// instructions skill it may not (its instructions apply all the same).
  private func catalogLines(active: Set<String>) -> [SkillCatalogLine] {
    skills.compactMap { skill in
      switch skill.content {
      case .instructions(let body, _, _) where active.contains(skill.name):
        return SkillCatalogLine(
          name: skill.name, state: .active(instructions: body.text), description: skill.description)
      case .instructions where skill.allowsModelInvocation:
        return SkillCatalogLine(name: skill.name, state: .inactive, description: skill.description)
      case .prompt where skill.allowsModelInvocation:
        return SkillCatalogLine(name: skill.name, state: .onDemand, description: skill.description)
      default:
        return nil
      }
    }
  }

  /// Adds the catalog, the bodies of active instructions skills, the
  /// activation tool and the tools of active skills, and notes changes.
  public func resolve(into resolution: inout ProfileResolution) async throws {
    guard !skills.isEmpty else { return }
    if let turn = resolution.turn {
      let outcome = try await SkillTurnActivation(
        skillsByName: Dictionary(skills.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }),
        toolName: toolName, slashCommands: slashCommandActivation, activations: activations
      ).run(for: turn)
      resolution.appendedEntries += outcome.entries
      resolution.notes += outcome.notes
    }
    let rendered = try await render(active: Set(activations.activeSkillNames))
    resolution.append(rendered.instructions)
    for tool in rendered.tools { resolution.append(tool) }
    resolution.contextRetention = retention
    if let note = rendered.catalog.note { resolution.notes.append(note) }
    resolution.modifiers.append(
      SkillDeliveryTracker(
        toolName: toolName, promptSkillNames: Set(skills.filter { !$0.isInstructionsSkill }.map(\.name)),
        activations: activations))
    let catalog = Dictionary(
      modelInvocableSkills.map { ($0.name, $0.description) }, uniquingKeysWith: { first, _ in first })
    if let previous = await activations.exchangeCatalog(catalog), previous != catalog {
      resolution.notes += SkillCatalogChangeNote.notes(from: previous, to: catalog)
    }
    let current = rendered.activeInstructionSkills
    if let previous = await activations.exchangeInstructionSkills(current), previous != current {
      resolution.notes += SkillInstructionsChangeNote.notes(from: previous, to: current, skills: skills)
    }
  }
}
