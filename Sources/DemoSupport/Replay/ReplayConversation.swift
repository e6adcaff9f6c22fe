/// A recorded conversation that a ``ReplayLanguageModel`` plays back: the
/// app's instructions and tools, the context budget it runs under, and for
/// every user turn the prompt and what the model answered, generation by
/// generation (reasoning, tool calls, text).
///
/// Conversations are plain data (`Codable`), so a corpus can be saved and
/// replayed the same way on any machine.
///
/// ```swift
/// let conversation = CorpusGenerator(seed: 7).conversation(turns: 40)
/// print(conversation.turns.count, conversation.budget)
/// ```
public struct ReplayConversation: Sendable, Hashable, Codable {
  /// A short name for tables: `coding-agent`, `corpus-3`.
  public var name: String
  /// The app's instructions.
  public var instructions: String
  /// The context budget, in tokens, that compression strategies keep to.
  public var budget: Int
  /// The app's tools, with their recorded outputs.
  public var tools: [ReplayToolSpec]
  /// Whether the skills from the skills library are offered.
  public var usesSkills: Bool
  /// The turns, in order.
  public var turns: [ReplayTurn]

  /// Creates a conversation.
  public init(
    name: String, instructions: String, budget: Int, tools: [ReplayToolSpec], usesSkills: Bool,
    turns: [ReplayTurn]
  ) {
    self.name = name
    self.instructions = instructions
    self.budget = budget
    self.tools = tools
    self.usesSkills = usesSkills
    self.turns = turns
  }

  /// The generations of every turn.
  public var generationCount: Int { turns.reduce(0) { $0 + $1.generations.count } }
}

/// One user turn: the prompt and the model's generations until it answers.
public struct ReplayTurn: Sendable, Hashable, Codable {
  /// What the user asked.
  public var prompt: String
  /// The generations, in order; every one but the last calls tools.
  public var generations: [ReplayGeneration]

  /// Creates a turn.
  public init(prompt: String, generations: [ReplayGeneration]) {
    self.prompt = prompt
    self.generations = generations
  }
}

/// What the model produced in one generation.
public struct ReplayGeneration: Sendable, Hashable, Codable {
  /// Reasoning before the rest, when any.
  public var reasoning: String?
  /// The tools called; empty for the answer.
  public var toolCalls: [ReplayToolCall]
  /// The answer's text, when the generation answers.
  public var text: String?

  /// Creates a generation.
  public init(reasoning: String? = nil, toolCalls: [ReplayToolCall] = [], text: String? = nil) {
    self.reasoning = reasoning
    self.toolCalls = toolCalls
    self.text = text
  }

  /// A generation that answers with `text`.
  public static func answer(_ text: String, reasoning: String? = nil) -> ReplayGeneration {
    ReplayGeneration(reasoning: reasoning, text: text)
  }

  /// A generation that calls tools.
  public static func calls(_ calls: [ReplayToolCall], reasoning: String? = nil) -> ReplayGeneration {
    ReplayGeneration(reasoning: reasoning, toolCalls: calls)
  }
}

/// One tool call: the tool's name and its single string argument.
public struct ReplayToolCall: Sendable, Hashable, Codable {
  /// The tool's name (`activate_skill`/`toggle_skill` for skills).
  public var tool: String
  /// The argument's name in the tool's schema.
  public var parameter: String
  /// The argument's value.
  public var value: String

  /// Creates a call.
  public init(tool: String, parameter: String, value: String) {
    self.tool = tool
    self.parameter = parameter
    self.value = value
  }
}
