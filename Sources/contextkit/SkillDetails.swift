import ContextKit
import Foundation

/// `contextkit skills show NAME`: one skill's front matter, outline, links, resources and body.
struct SkillDetails {
  let name: String
  let roots: SkillRoots
  let json: Bool

  /// `--json`: the skill's summary fields, then its outline, links, resources and body.
  struct Output: Encodable {
    var name: String
    var description: String
    var flavour: String
    var allowsDeactivation: Bool
    var allowsModelInvocation: Bool
    var folder: String
    var sections: [SkillSection]
    var links: [SkillLink]
    var resources: [SkillResource]
    var body: String
  }

  /// A skill name that no root holds.
  struct UnknownSkill: Error, CustomStringConvertible {
    var name: String
    var available: [String]
    var description: String {
      "no skill named \"\(name)\"; available: "
        + (available.isEmpty ? "none" : available.joined(separator: ", "))
    }
  }

  func run(console: Console) throws -> ExitCode {
    let (library, diagnostics) = try roots.load()
    console.printDiagnostics(diagnostics)
    guard let skill = library.skill(named: name) else {
      throw UnknownSkill(name: name, available: library.names)
    }
    // As list and catalog: shown, but exit 1 when a skill or root under the roots is invalid.
    let status: ExitCode = diagnostics.contains(where: \.isError) ? .invalidInput : .success
    if json {
      let summary = SkillSummary(skill)
      console.print(
        try JSONOutput.string(
          Output(
            name: summary.name, description: summary.description, flavour: summary.flavour,
            allowsDeactivation: summary.allowsDeactivation,
            allowsModelInvocation: summary.allowsModelInvocation, folder: summary.folder,
            sections: skill.sections,
            links: skill.links, resources: skill.resources, body: skill.body)))
      return status
    }
    console.print("name: \(skill.name)")
    // One line each: a newline in a description or a file name must not forge the next line.
    console.print("description: \(Self.oneLine(skill.description))")
    console.print(
      "activation: \(skill.activation.rawValue)\(skill.allowsDeactivation ? " (allows deactivation)" : "")")
    console.print(
      skill.allowsModelInvocation
        ? "model invocation: yes (the model, the app, and the user with /\(skill.name))"
        : "model invocation: no, hidden from the model (disable-model-invocation); "
          + "the app and the user with /\(skill.name) activate it")
    console.print("folder: \(Self.oneLine(skill.folder.path))")
    if !skill.sections.isEmpty {
      console.print("sections:")
      for section in skill.sections.flatMap(\.flattened) {
        console.print(
          "  \(String(repeating: "  ", count: max(0, section.level - 1)))\(Self.oneLine(section.title)) "
            + "(line \(section.line))"
        )
      }
    }
    if !skill.links.isEmpty {
      console.print("links:")
      for link in skill.links { console.print("  \(Self.oneLine(link.destination)) (line \(link.line))") }
    }
    if !skill.resources.isEmpty {
      console.print("resources:")
      for resource in skill.resources {
        console.print(
          "  \(Self.oneLine(resource.path)) (\(resource.size) bytes, \(resource.content.rawValue))")
      }
    }
    console.print("---")
    console.print(skill.body)
    return status
  }

  /// A field shown on one line: line breaks and every other control character escaped.
  private static func oneLine(_ text: String) -> String {
    TerminalText.escaped(text, keepingNewlines: false)
  }
}
