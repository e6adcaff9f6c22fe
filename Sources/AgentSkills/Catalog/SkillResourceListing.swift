import ModelSession

/// The text the activation tool returns: the body of a prompt skill and, for a
/// skill with resources, the list of its files, each in its own tag so the
/// model can tell instructions from the list.
///
/// ```text
/// <skill_content name="reviewing-sql">
/// # Reviewing SQL ...
/// </skill_content>
/// <skill_resources name="reviewing-sql">
/// Files in this skill's folder. Read one with read_skill_resource ...
/// - references/sql-checklist.md (text, 2,345 bytes)
/// - scripts/explain.sh (text, 512 bytes; a script: read it, it is never run)
/// - assets/diagram.png (binary, 10,240 bytes; cannot be read)
/// </skill_resources>
/// ```
///
/// A skill without resources delivers its body alone, exactly as written.
enum SkillResourceListing {
  /// What activating a prompt skill delivers.
  static func promptDelivery(_ skill: Skill, body: Prompt) -> Prompt {
    guard let list = resourceList(skill) else { return body }
    return Prompt("<skill_content name=\"\(skill.name)\">\n\(body.text)\n</skill_content>\n\(list)")
  }

  /// What activating an instructions skill says, followed by its resource list when it has one.
  static func instructionsActivation(_ skill: Skill, message: String) -> Prompt {
    guard let list = resourceList(skill) else { return Prompt(message) }
    return Prompt(message + "\n" + list)
  }

  /// The `<skill_resources>` block, or `nil` when the skill has no resources.
  static func resourceList(_ skill: Skill) -> String? {
    let resources = skill.resources
    guard !resources.isEmpty else { return nil }
    var lines = [
      "<skill_resources name=\"\(skill.name)\">",
      "Files in this skill's folder. Read one with \(Skills.readResourceToolName) (skill \"\(skill.name)\", "
        + "path as listed) when the instructions call for it. Scripts are shown as text and never run.",
    ]
    for resource in resources {
      var line =
        "- \(resource.path) (\(resource.content.rawValue), \(CountFormatting.grouped(resource.size)) bytes"
      if !resource.isText {
        line += "; cannot be read"
      } else if resource.isScript {
        line += "; a script: read it, it is never run"
      }
      lines.append(line + ")")
    }
    lines.append("</skill_resources>")
    return lines.joined(separator: "\n")
  }
}
