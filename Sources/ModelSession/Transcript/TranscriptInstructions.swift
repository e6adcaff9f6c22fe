import Foundation

extension Transcript {
  /// Instructions that steer the model, and the tools it may call.
  public struct Instructions: Sendable, Equatable, Identifiable {
    /// The entry's stable identifier.
    public var id: String
    /// The instruction text and other content.
    public var segments: [Segment]
    /// The tools offered to the model.
    public var toolDefinitions: [ToolDefinition]

    /// Creates an instructions entry.
    public init(id: String = UUID().uuidString, segments: [Segment], toolDefinitions: [ToolDefinition]) {
      self.id = id
      self.segments = segments
      self.toolDefinitions = toolDefinitions
    }
  }

  /// The description of a tool as the model sees it.
  public struct ToolDefinition: Sendable, Equatable, Hashable {
    /// The tool's name, unique in a request.
    public var name: String
    /// What the tool does, in words the model reads.
    public var description: String
    /// The schema of the tool's arguments.
    public var parameters: GenerationSchema

    /// Creates a tool definition.
    public init(name: String, description: String, parameters: GenerationSchema) {
      self.name = name
      self.description = description
      self.parameters = parameters
    }

    /// The definition of a tool.
    public init(tool: some Tool) {
      self.init(name: tool.name, description: tool.description, parameters: tool.parameters)
    }
  }
}
