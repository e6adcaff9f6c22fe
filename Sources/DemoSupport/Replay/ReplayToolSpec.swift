import ModelSession

/// An app tool in a recorded conversation: its definition (one string
/// parameter) and the output recorded for each argument value.
public struct ReplayToolSpec: Sendable, Hashable, Codable {
  /// The tool's name.
  public var name: String
  /// The tool's description.
  public var description: String
  /// The name of its one string parameter.
  public var parameter: String
  /// What the parameter means.
  public var parameterDescription: String
  /// The recorded output for each argument value.
  public var outputs: [String: String]

  /// Creates a tool.
  public init(
    name: String, description: String, parameter: String, parameterDescription: String,
    outputs: [String: String] = [:]
  ) {
    self.name = name
    self.description = description
    self.parameter = parameter
    self.parameterDescription = parameterDescription
    self.outputs = outputs
  }
}

/// A `Tool` that answers from a ``ReplayToolSpec``'s recorded outputs.
public struct ReplayTool: Tool {
  /// The recording.
  public let spec: ReplayToolSpec
  /// The tool's name.
  public var name: String { spec.name }
  /// The tool's description.
  public var description: String { spec.description }
  /// One required string property, named as the spec says.
  public let parameters: GenerationSchema

  /// Creates the tool.
  ///
  /// - Throws: when the schema cannot be built (a parameter name the schema rejects).
  public init(spec: ReplayToolSpec) throws {
    self.spec = spec
    parameters = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "\(spec.name)_arguments",
        properties: [
          DynamicGenerationSchema.Property(
            name: spec.parameter, description: spec.parameterDescription,
            schema: DynamicGenerationSchema(type: String.self))
        ]),
      dependencies: [])
  }

  /// The recorded output for the call's argument.
  ///
  /// - Throws: ``ReplayError/unrecordedToolCall(tool:argument:)`` when nothing was recorded for it.
  public func call(arguments: GeneratedContent) async throws -> Prompt {
    let value = try arguments.value(String.self, forProperty: spec.parameter)
    guard let output = spec.outputs[value] else {
      throw ReplayError.unrecordedToolCall(tool: spec.name, argument: value)
    }
    return Prompt(output)
  }
}
