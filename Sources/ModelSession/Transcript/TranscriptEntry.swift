extension Transcript {
  /// One entry of a transcript.
  public enum Entry: Sendable, Equatable, Identifiable {
    /// The instructions that steer the model, with the tools it may call.
    case instructions(Instructions)
    /// A prompt from the user.
    case prompt(Prompt)
    /// Tool calls the model asked for.
    case toolCalls(ToolCalls)
    /// The output of one tool call.
    case toolOutput(ToolOutput)
    /// A response from the model.
    case response(Response)
    /// Reasoning the model did before answering.
    case reasoning(Reasoning)

    /// The entry's stable identifier.
    public var id: String {
      switch self {
      case .instructions(let entry): entry.id
      case .prompt(let entry): entry.id
      case .toolCalls(let entry): entry.id
      case .toolOutput(let entry): entry.id
      case .response(let entry): entry.id
      case .reasoning(let entry): entry.id
      }
    }

    /// A short name for the kind of entry (`"prompt"`, `"toolCalls"`, …), as
    /// written in the JSON form.
    public var kindName: String {
      switch self {
      case .instructions: "instructions"
      case .prompt: "prompt"
      case .toolCalls: "toolCalls"
      case .toolOutput: "toolOutput"
      case .response: "response"
      case .reasoning: "reasoning"
      }
    }

    /// The entry's segments (tool calls have none).
    public var segments: [Segment] {
      switch self {
      case .instructions(let entry): entry.segments
      case .prompt(let entry): entry.segments
      case .toolCalls: []
      case .toolOutput(let entry): entry.segments
      case .response(let entry): entry.segments
      case .reasoning(let entry): entry.segments
      }
    }
  }
}
