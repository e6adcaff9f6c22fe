import ModelSession

/// The tool `Skills` adds when some skill has resources: the model reads one
/// text file of an activated skill, a window of at most 32 KiB at a time.
///
/// Arguments: `skill` (one of the skills that have resources), `path` (as the
/// activation listed it), and optionally `offset` and `limit` in bytes. Every
/// refusal (the skill is not activated yet, no such resource, a binary file,
/// a path that leads outside the folder, a FIFO or a device) is answered with
/// an output that starts with `Error:`, so the model can correct itself and
/// the session goes on. Files are only ever read, never run.
///
/// Its definition depends only on the list of skills, so activations never
/// change it (no prompt-cache miss).
struct SkillResourceTool: Tool {
  let name = Skills.readResourceToolName
  let description =
    "Reads a text file that an activated skill lists among its resources, at most 32 KB per call. "
    + "For a longer file, call again with the offset the previous result gives."
  let parameters: GenerationSchema
  let sourcesByName: [String: LoadedSkill]
  let activations: SkillActivations

  /// The tool for `skills`, or `nil` when none of them has resources.
  init?(skills: [Skill], activations: SkillActivations) throws {
    let readable = skills.compactMap { skill in
      skill.source.flatMap { $0.resources.isEmpty ? nil : (skill.name, $0) }
    }
    guard !readable.isEmpty else { return nil }
    self.activations = activations
    sourcesByName = Dictionary(readable, uniquingKeysWith: { first, _ in first })
    parameters = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "SkillResourceArguments",
        properties: [
          DynamicGenerationSchema.Property(
            name: "skill", description: "The name of an activated skill",
            schema: DynamicGenerationSchema(name: "SkillWithResources", anyOf: readable.map(\.0))),
          DynamicGenerationSchema.Property(
            name: "path", description: "The file's path as the skill's resource list gives it",
            schema: DynamicGenerationSchema(type: String.self)),
          DynamicGenerationSchema.Property(
            name: "offset", description: "The byte offset to start from (default 0)",
            schema: DynamicGenerationSchema(type: Int.self), isOptional: true),
          DynamicGenerationSchema.Property(
            name: "limit", description: "The most bytes to return (default and maximum 32768)",
            schema: DynamicGenerationSchema(type: Int.self), isOptional: true),
        ]),
      dependencies: [])
  }

  func call(arguments: GeneratedContent) async throws -> Prompt {
    let skillName = try arguments.value(String.self, forProperty: "skill")
    let path = try arguments.value(String.self, forProperty: "path")
    let offset = try arguments.value(Int?.self, forProperty: "offset") ?? 0
    let limit = try arguments.value(Int?.self, forProperty: "limit") ?? SkillResourceExcerpt.defaultLimit
    guard let source = sourcesByName[skillName] else {
      let names = sourcesByName.keys.sorted().joined(separator: ", ")
      return Prompt("Error: no skill named \"\(skillName)\" has resources. Skills with resources: \(names).")
    }
    guard await isActivated(skillName) else {
      return Prompt(
        "Error: the skill \"\(skillName)\" is not activated. Activate it first; its instructions say which "
          + "of its files to read.")
    }
    guard offset >= 0, limit > 0 else {
      return Prompt(
        "Error: offset must be 0 or more and limit more than 0 (got offset \(offset), limit \(limit)).")
    }
    let match = Self.match(path, in: source)
    if case .ambiguous(let candidates) = match {
      return Prompt(
        "Error: skill \"\(skillName)\": no file is named \"\(path)\", and several match it when case is "
          + "ignored: \(candidates.map(\.path).joined(separator: ", ")). Call again with one of these paths.")
    }
    guard let resource = match.resource else {
      return Prompt("Error: \(SkillResourceError.notFound(path, skill: skillName)). \(listing(source))")
    }
    guard resource.isText else {
      return Prompt(
        "Error: \(SkillResourceError.binary(resource.path, skill: skillName, size: resource.size)).")
    }
    let excerpt: SkillResourceExcerpt
    do {
      excerpt = try source.readTextResource(
        resource.path, offset: offset, limit: min(limit, SkillResourceExcerpt.defaultLimit))
    } catch {
      return Prompt("Error: \(error).")
    }
    guard case .ignoringCase = match else { return Prompt(Self.render(excerpt, skill: skillName)) }
    return Prompt(
      "No file is named \"\(path)\"; read \"\(resource.path)\", the one file that matches it when case is "
        + "ignored.\n" + Self.render(excerpt, skill: skillName))
  }

  /// The resource `path` names: exactly, then as the one listed path that ends
  /// with it, then the same two with letter case ignored (one match only).
  static func match(_ path: String, in source: LoadedSkill) -> SkillResourceMatch {
    let match = source.matchResource(path)
    if case .exact = match { return match }
    guard let normalized = RelativePath.normalized(path) else { return .none }
    let suffixes = source.resources.filter { $0.path.hasSuffix("/" + normalized) }
    if suffixes.count == 1 { return .exact(suffixes[0]) }
    // Several files end with the path as written: no guess, the answer lists the files.
    guard suffixes.isEmpty else { return .none }
    guard case .none = match else { return match }
    let folded = "/" + normalized.lowercased()
    let candidates = source.resources.filter { $0.path.lowercased().hasSuffix(folded) }
    switch candidates.count {
    case 0: return .none
    case 1: return .ignoringCase(candidates[0])
    default: return .ambiguous(candidates.sorted { $0.path < $1.path })
    }
  }

  /// Whether the model has activated the skill: an active instructions skill,
  /// or a prompt skill whose body it has been given.
  private func isActivated(_ name: String) async -> Bool {
    if activations.isActive(name) { return true }
    return activations.isLoaded(name)
  }

  /// The one listed resource whose path ends with `/path` (a model that wrote
  /// `checklist.md` for `references/checklist.md`), or `nil` when none or several do.
  static func uniqueSuffixMatch(_ path: String, in resources: [SkillResource]) -> SkillResource? {
    guard let normalized = RelativePath.normalized(path) else { return nil }
    let matches = resources.filter { $0.path.hasSuffix("/" + normalized) }
    return matches.count == 1 ? matches.first : nil
  }

  private func listing(_ source: LoadedSkill) -> String {
    let shown = source.resources.prefix(50).map(\.path)
    let more =
      source.resources.count > shown.count ? ", and \(source.resources.count - shown.count) more" : ""
    return "Its resources: \(shown.joined(separator: ", "))\(more)."
  }

  /// The window in a tag naming the file and the bytes shown, then how to continue.
  static func render(_ excerpt: SkillResourceExcerpt, skill: String) -> String {
    var text =
      "<skill_resource skill=\"\(skill)\" path=\"\(excerpt.path)\" "
      + "bytes=\"\(excerpt.offset)-\(excerpt.endOffset) of \(excerpt.totalSize)\">\n"
      + excerpt.text + (excerpt.text.hasSuffix("\n") || excerpt.text.isEmpty ? "" : "\n")
      + "</skill_resource>"
    if excerpt.remainingBytes > 0 {
      text +=
        "\n\(CountFormatting.grouped(excerpt.remainingBytes)) more bytes: call \(Skills.readResourceToolName) "
        + "again with offset \(excerpt.endOffset) to continue."
    }
    return text
  }
}
