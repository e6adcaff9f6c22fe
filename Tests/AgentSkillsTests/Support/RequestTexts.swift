import AgentSkills
import Foundation
import ModelSession
import TestSupport

/// The instructions text a request starts with.
func requestInstructions(_ request: LanguageModelExecutorGenerationRequest) -> String {
  guard case .instructions(let entry) = request.transcript.first else { return "" }
  return entry.segments.joinedText
}

/// The JSON of every tool definition of a request: name, description and schema.
func toolDefinitionsJSON(_ request: LanguageModelExecutorGenerationRequest) -> [String] {
  request.enabledToolDefinitions.map { "\($0.name)|\($0.description)|\($0.parameters.jsonSchema.jsonString)" }
}

/// The skills a request's activation tool offers, from its schema's enum.
func activationEnum(
  _ request: LanguageModelExecutorGenerationRequest, tool: String = Skills.activateToolName
)
  -> [String]?
{
  guard let definition = request.enabledToolDefinitions.first(where: { $0.name == tool }),
    case .structure(let schema, _) = definition.parameters.jsonSchema.kind,
    case .structure(let properties, _) = schema["properties"]?.kind,
    case .structure(let skill, _) = properties["skill"]?.kind,
    case .array(let values) = skill["enum"]?.kind
  else { return nil }
  return values.compactMap { if case .string(let name) = $0.kind { name } else { nil } }
}

/// The text of the prompt entries of a transcript.
func promptTexts(_ transcript: Transcript) -> [String] {
  transcript.compactMap { if case .prompt(let prompt) = $0 { prompt.segments.joinedText } else { nil } }
}

/// The text of each tool output of a transcript.
func toolOutputTexts(_ transcript: Transcript) -> [String] {
  transcript.compactMap { if case .toolOutput(let output) = $0 { output.segments.joinedText } else { nil } }
}
