import ContextKit
import Foundation

/// `contextkit skills`: list, validate, show, and print the catalog of skills on disk.
struct SkillsCommand: Command {
  let name = "skills"
  let summary = "list, validate and show Agent Skills (SKILL.md folders)"
  let usage = """
    usage: contextkit skills list [--project DIR [--home DIR]] [--json] [ROOT...]
           contextkit skills validate [--strict] [--json] [PATH...]
           contextkit skills show [--project DIR [--home DIR]] [--resource PATH] [--json] NAME [ROOT...]
           contextkit skills catalog [--project DIR [--home DIR]] [--budget N] [--json] [ROOT...]

      ROOT is a folder to search for skills; several may be given (an earlier root wins a
      name clash); the default is ./SkillsLibrary.
      --project DIR  search where agents keep skills for the project DIR and the user, in this
                 order (those that exist): DIR/.agents/skills, DIR/.claude/skills,
                 ~/.agents/skills, ~/.claude/skills; then each ROOT given
      --home DIR     the user's folder for --project (default: HOME)

      list       each skill's name, flavour (prompt or instructions), whether the model may
                 deactivate it, whether the model may activate it (invokes) or it is hidden
                 from the model (disable-model-invocation), and its description
      validate   checks each PATH: a SKILL.md file, a skill folder, or a root to search; prints
                 path:line:col: severity: message for every problem, sorted by file, line and column
                 --strict  unknown front-matter keys are errors, and the first error stops
      show       a skill's front matter, sections, links and resources, then its body
                 --resource PATH  print that resource of the skill instead (a text file; a path
                             in another letter case names the one file that matches it)
      catalog    the exact instructions text and tool definitions the model sees for these skills
                 --budget N  fit the catalog in N tokens (estimated at 4 bytes a token): shorten
                             descriptions, then names only, then leave skills out; prints each step
      --json     the result as JSON (shapes in docs/cli.md)

      Exit status: 0 success, 1 a skill or root is invalid (diagnostics on standard error),
      2 wrong usage.
    """

  func run(_ arguments: inout CommandLineArguments, console: Console) async throws -> ExitCode {
    guard let action = arguments.nextPositional() else {
      throw CommandLineArguments.UsageError(
        description: "skills needs an action: list, validate, show or catalog")
    }
    let json = arguments.flag("--json")
    switch action {
    case "list":
      let roots = try SkillRoots(&arguments)
      try arguments.finish()
      return try SkillsListing(roots: roots, json: json).run(console: console)
    case "validate":
      let strict = arguments.flag("--strict")
      let paths = arguments.remainingPositionals()
      try arguments.finish()
      return try SkillValidation(paths: paths.isEmpty ? [SkillRoots.defaultPath] : paths, strict: strict)
        .run(json: json, console: console)
    case "show":
      let rootOptions = try SkillRoots.rootOptions(&arguments)
      let project = try arguments.option("--project")
      let home = try arguments.option("--home")
      let resource = try arguments.option("--resource")
      guard let skillName = arguments.nextPositional() else {
        throw CommandLineArguments.UsageError(description: "show needs a skill NAME")
      }
      let roots = SkillRoots(rootOptions + arguments.remainingPositionals(), project: project, home: home)
      try arguments.finish()
      if let resource {
        return try SkillResourceDisplay(name: skillName, path: resource, roots: roots, json: json)
          .run(console: console)
      }
      return try SkillDetails(name: skillName, roots: roots, json: json).run(console: console)
    case "catalog":
      let budget = try arguments.integerOption("--budget")
      if let budget, budget < 0 {
        throw CommandLineArguments.UsageError(description: "--budget takes 0 or more tokens, not \(budget)")
      }
      let roots = try SkillRoots(&arguments)
      try arguments.finish()
      return try await SkillsCatalogCommand(roots: roots, json: json, budget: budget).run(console: console)
    default:
      throw CommandLineArguments.UsageError(description: "unknown skills action \"\(action)\"")
    }
  }
}

extension Console {
  /// Writes each diagnostic to standard error in compiler form.
  func printDiagnostics(_ diagnostics: [SkillDiagnostic]) {
    for diagnostic in diagnostics {
      printDiagnostic(TerminalText.escaped(diagnostic.description, keepingNewlines: false))
    }
  }
}
