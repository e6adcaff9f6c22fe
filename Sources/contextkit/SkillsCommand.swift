import ContextKit
import Foundation

/// `contextkit skills`: list, validate, show, and print the catalog of skills on disk.
struct SkillsCommand: Command {
  let name = "skills"
  let summary = "list, validate and show Agent Skills (SKILL.md folders)"
  let usage = """
    usage: contextkit skills list [ROOT...]
           contextkit skills validate [--strict] [--json] PATH...
           contextkit skills show [--root ROOT]... NAME
           contextkit skills catalog [--root ROOT]...

      list       the skills under each ROOT (default: ./SkillsLibrary), with flavour and description
      validate   checks each PATH: a skill folder, or a root to search for skills; prints
                 path:line:col: severity: message for every problem, and exits 1 when any is an error
                 --strict  unknown front-matter keys are errors, and the first error stops
                 --json    diagnostics and totals as JSON
      show       a skill's front matter, sections, links and resources, then its body
      catalog    the exact instructions text and tool definition the model sees for these skills
    """

  func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
    guard let action = arguments.nextPositional() else {
      throw CommandLineArguments.UsageError(
        description: "skills needs an action: list, validate, show or catalog")
    }
    switch action {
    case "list":
      let roots = arguments.remainingPositionals()
      try arguments.finish()
      return try list(roots: roots)
    case "validate":
      let strict = arguments.flag("--strict")
      let json = arguments.flag("--json")
      let paths = arguments.remainingPositionals()
      try arguments.finish()
      guard !paths.isEmpty else {
        throw CommandLineArguments.UsageError(description: "validate needs at least one PATH")
      }
      return try SkillValidation(paths: paths, strict: strict).run(json: json)
    case "show":
      let roots = try repeatedRoots(&arguments)
      guard let skillName = arguments.nextPositional() else {
        throw CommandLineArguments.UsageError(description: "show needs a skill NAME")
      }
      try arguments.finish()
      return try show(skillName, roots: roots)
    case "catalog":
      let roots = try repeatedRoots(&arguments)
      try arguments.finish()
      return try await catalog(roots: roots)
    default:
      throw CommandLineArguments.UsageError(description: "unknown skills action \"\(action)\"")
    }
  }

  private func repeatedRoots(_ arguments: inout CommandLineArguments) throws -> [String] {
    var roots: [String] = []
    while let root = try arguments.option("--root") { roots.append(root) }
    return roots
  }

  private func library(roots: [String]) throws -> SkillsLibrary {
    let paths = roots.isEmpty ? ["SkillsLibrary"] : roots
    for path in paths where !FileManager.default.fileExists(atPath: path) {
      throw CommandLineArguments.UsageError(description: "no such folder: \(path)")
    }
    let library = try SkillsLibrary(roots: paths.map { URL(fileURLWithPath: $0, isDirectory: true) })
    for diagnostic in library.diagnostics { printError(diagnostic.description) }
    return library
  }

  private func list(roots: [String]) throws -> Int32 {
    let library = try library(roots: roots)
    let width = library.names.map(\.count).max() ?? 0
    for skill in library.loadedSkills {
      let flavour = skill.activation == .instructions ? "instructions" : "prompt"
      printText(
        "\(skill.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(flavour.padding(toLength: 12, withPad: " ", startingAt: 0))  \(TerminalText.escaped(skill.description, keepingNewlines: false))"
      )
    }
    return library.hasErrors ? 1 : 0
  }

  private func show(_ skillName: String, roots: [String]) throws -> Int32 {
    let library = try library(roots: roots)
    guard let skill = library.skill(named: skillName) else {
      printError("no skill named \"\(skillName)\"; available: \(library.names.joined(separator: ", "))")
      return 1
    }
    printText("name: \(skill.name)")
    printText("description: \(skill.description)")
    printText(
      "activation: \(skill.activation.rawValue)\(skill.allowsDeactivation ? " (allows deactivation)" : "")")
    printText("folder: \(skill.folder.path)")
    if !skill.sections.isEmpty {
      printText("sections:")
      for section in skill.sections.flatMap(\.flattened) {
        printText(
          "  \(String(repeating: "  ", count: max(0, section.level - 1)))\(section.title) (line \(section.line))"
        )
      }
    }
    if !skill.links.isEmpty {
      printText("links:")
      for link in skill.links { printText("  \(link.destination) (line \(link.line))") }
    }
    if !skill.resources.isEmpty {
      printText("resources:")
      for resource in skill.resources { printText("  \(resource)") }
    }
    printText("---")
    printText(skill.body)
    return 0
  }

  private func catalog(roots: [String]) async throws -> Int32 {
    let library = try library(roots: roots)
    let skills = Skills(activations: SkillActivations(), skills: library.skills)
    var resolution = ProfileResolution()
    try await skills.resolve(into: &resolution)
    printText(Instructions(segments: resolution.instructionSegments).text)
    for tool in resolution.tools {
      let definition = Transcript.ToolDefinition(tool: tool)
      printText("")
      printText("tool \(definition.name): \(definition.description)")
      printText(definition.parameters.jsonSchema.jsonString(prettyPrinted: true))
    }
    return 0
  }
}
