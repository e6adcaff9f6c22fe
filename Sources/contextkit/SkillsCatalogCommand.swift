import ContextKit
import Foundation

/// `contextkit skills catalog`: the instructions text and tool definitions the model sees.
struct SkillsCatalogCommand {
  let roots: SkillRoots
  let json: Bool

  /// `--json`: `{"skills", "instructions", "tools": [{"name", "description", "parameters"}], "diagnostics"}`;
  /// `parameters` is the tool's JSON Schema.
  struct Output: Encodable {
    struct ToolDefinition: Encodable {
      var name: String
      var description: String
      var parameters: GenerationSchema
    }

    var skills: [String]
    var instructions: String
    var tools: [ToolDefinition]
    var diagnostics: [SkillDiagnostic]
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
          try JSONOutput.string(Output(skills: [], instructions: "", tools: [], diagnostics: diagnostics)))
      }
      console.printError(NothingLoaded(roots: roots.paths).description)
      return .invalidInput
    }
    let skills = Skills(activations: SkillActivations(), skills: library.skills)
    var resolution = ProfileResolution()
    try await skills.resolve(into: &resolution)
    let instructions = Instructions(segments: resolution.instructionSegments).text
    let definitions = resolution.tools.map { Transcript.ToolDefinition(tool: $0) }
    if json {
      console.print(
        try JSONOutput.string(
          Output(
            skills: library.names, instructions: instructions,
            tools: definitions.map {
              Output.ToolDefinition(name: $0.name, description: $0.description, parameters: $0.parameters)
            },
            diagnostics: diagnostics)))
    } else {
      console.printDiagnostics(diagnostics)
      console.print(instructions)
      for definition in definitions {
        console.print("")
        console.print("tool \(definition.name): \(definition.description)")
        console.print(definition.parameters.jsonSchema.jsonString(prettyPrinted: true))
      }
    }
    return diagnostics.contains(where: \.isError) ? .invalidInput : .success
  }
}
