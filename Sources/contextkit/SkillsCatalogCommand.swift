import ContextKit
import Foundation

/// `contextkit skills catalog`: the instructions text and tool definitions the model sees.
struct SkillsCatalogCommand {
  let roots: SkillRoots
  let json: Bool
  /// `--budget N`: the catalog's budget in tokens, or `nil` for none.
  var budget: Int? = nil

  /// `--json`: `{"skills", "hiddenSkills", "instructions", "tools": [{"name", "description", "parameters"}],
  /// "budget", "diagnostics"}`; `skills` are the skills the model may activate (the catalog's and the
  /// tool's), `hiddenSkills` those hidden from the model (`disable-model-invocation`), `parameters` is the
  /// tool's JSON Schema, `budget` a ``CatalogBudgetReport`` or null.
  struct Output: Encodable {
    struct ToolDefinition: Encodable {
      var name: String
      var description: String
      var parameters: GenerationSchema
    }

    var skills: [String]
    var hiddenSkills: [String]
    var instructions: String
    var tools: [ToolDefinition]
    var budget: CatalogBudgetReport?
    var diagnostics: [SkillDiagnostic]

    private enum CodingKeys: String, CodingKey {
      case skills, hiddenSkills, instructions, tools, budget, diagnostics
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(skills, forKey: .skills)
      try container.encode(hiddenSkills, forKey: .hiddenSkills)
      try container.encode(instructions, forKey: .instructions)
      try container.encode(tools, forKey: .tools)
      try container.encode(budget, forKey: .budget)
      try container.encode(diagnostics, forKey: .diagnostics)
    }
  }

  /// No skill under the roots loaded.
  struct NothingLoaded: Error, CustomStringConvertible {
    var roots: [String]
    var description: String {
      "no skill loaded from \(roots.joined(separator: ", ")); the catalog would be empty"
    }
  }

  func run(console: Console) async throws -> ExitCode {
    let (library, diagnostics) = try roots.load()
    if library.loadedSkills.isEmpty {
      console.printDiagnostics(diagnostics)
      if json {
        console.print(
          try JSONOutput.string(
            Output(
              skills: [], hiddenSkills: [], instructions: "", tools: [], budget: nil, diagnostics: diagnostics
            )))
      }
      console.printError(NothingLoaded(roots: roots.paths).description)
      return .invalidInput
    }
    let skills = Skills(activations: SkillActivations(), skills: library.skills)
      .catalogBudget(budget.map { SkillCatalogBudget(tokens: $0) })
    var resolution = ProfileResolution()
    try await skills.resolve(into: &resolution)
    // The budget remembers the fit `resolve` made: the same listing, not counted again.
    let listing = try await skills.catalog(active: [])
    let instructions = Instructions(segments: resolution.instructionSegments).text
    let definitions = resolution.tools.map { Transcript.ToolDefinition(tool: $0) }
    if json {
      console.print(
        try JSONOutput.string(
          Output(
            skills: library.skills.filter(\.allowsModelInvocation).map(\.name),
            hiddenSkills: library.skills.filter { !$0.allowsModelInvocation }.map(\.name),
            instructions: instructions,
            tools: definitions.map {
              Output.ToolDefinition(name: $0.name, description: $0.description, parameters: $0.parameters)
            },
            budget: budget.map { CatalogBudgetReport(listing, budget: $0) }, diagnostics: diagnostics)))
    } else {
      console.printDiagnostics(diagnostics)
      console.print(instructions)
      for definition in definitions {
        console.print("")
        console.print("tool \(definition.name): \(definition.description)")
        console.print(definition.parameters.jsonSchema.jsonString(prettyPrinted: true))
      }
      if let budget {
        console.print("")
        for line in CatalogBudgetReport.lines(for: listing, budget: budget) { console.print(line) }
      }
    }
    return diagnostics.contains(where: \.isError) ? .invalidInput : .success
  }
}
