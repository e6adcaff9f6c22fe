/// One `chat.completion.chunk` object from a streamed chat completion.
///
/// Decoding is lenient where servers differ: a missing `choices` array is
/// empty, a missing `delta` is empty, and `reasoning` is accepted as well as
/// `reasoning_content`.
public struct ChatCompletionChunk: Decodable, Sendable, Hashable {
  /// The completion's identifier, the same on every chunk of one stream.
  public var id: String?

  /// The model that produced the chunk, as the server names it.
  public var model: String?

  /// The server's fingerprint of its configuration, when it sends one.
  public var systemFingerprint: String?

  /// The choices this chunk extends; usually one, empty on the final usage chunk.
  public var choices: [Choice]

  /// Token usage, sent on the last chunk when `stream_options.include_usage` is set.
  public var usage: Usage?

  /// llama.cpp's timings (cached and processed prompt tokens), when the server sends them.
  public var timings: Timings?

  /// Creates a chunk.
  public init(
    id: String? = nil, model: String? = nil, systemFingerprint: String? = nil, choices: [Choice] = [],
    usage: Usage? = nil, timings: Timings? = nil
  ) {
    self.id = id
    self.model = model
    self.systemFingerprint = systemFingerprint
    self.choices = choices
    self.usage = usage
    self.timings = timings
  }

  private enum CodingKeys: String, CodingKey {
    case id, model, choices, usage, timings
    case systemFingerprint = "system_fingerprint"
  }

  /// Decodes a chunk from its JSON form.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decodeIfPresent(String.self, forKey: .id)
    model = try container.decodeIfPresent(String.self, forKey: .model)
    systemFingerprint = try container.decodeIfPresent(String.self, forKey: .systemFingerprint)
    choices = try container.decodeIfPresent([Choice].self, forKey: .choices) ?? []
    usage = try container.decodeIfPresent(Usage.self, forKey: .usage)
    // Timings are informative: a server whose timings do not decode still streams.
    timings = try? container.decodeIfPresent(Timings.self, forKey: .timings)
  }
}

extension ChatCompletionChunk {
  /// One choice of a chunk: what it adds to the message, and why it ended.
  public struct Choice: Decodable, Sendable, Hashable {
    /// The choice's position; `0` unless several completions were requested.
    public var index: Int

    /// What this chunk adds to the choice's message.
    public var delta: Delta

    /// Why generation stopped, on the choice's last chunk.
    public var finishReason: FinishReason?

    /// Creates a choice.
    public init(index: Int = 0, delta: Delta = Delta(), finishReason: FinishReason? = nil) {
      self.index = index
      self.delta = delta
      self.finishReason = finishReason
    }

    private enum CodingKeys: String, CodingKey {
      case index, delta
      case finishReason = "finish_reason"
    }

    /// Decodes a choice from its JSON form.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      index = try container.decodeIfPresent(Int.self, forKey: .index) ?? 0
      delta = try container.decodeIfPresent(Delta.self, forKey: .delta) ?? Delta()
      finishReason = try container.decodeIfPresent(FinishReason.self, forKey: .finishReason)
    }
  }

  /// The part of an assistant message that one chunk adds.
  public struct Delta: Decodable, Sendable, Hashable {
    /// The message's role, usually only on the first chunk.
    public var role: String?

    /// More response text.
    public var content: String?

    /// More reasoning text (`reasoning_content`, or `reasoning` on some servers).
    public var reasoningContent: String?

    /// A refusal message, from servers that send one instead of content.
    public var refusal: String?

    /// Fragments of tool calls, each addressed by its `index`.
    public var toolCalls: [ToolCallDelta]

    /// Creates a delta.
    public init(
      role: String? = nil, content: String? = nil, reasoningContent: String? = nil, refusal: String? = nil,
      toolCalls: [ToolCallDelta] = []
    ) {
      self.role = role
      self.content = content
      self.reasoningContent = reasoningContent
      self.refusal = refusal
      self.toolCalls = toolCalls
    }

    private enum CodingKeys: String, CodingKey {
      case role, content, refusal, reasoning
      case reasoningContent = "reasoning_content"
      case toolCalls = "tool_calls"
    }

    /// Decodes a delta from its JSON form.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      role = try container.decodeIfPresent(String.self, forKey: .role)
      content = try container.decodeIfPresent(String.self, forKey: .content)
      reasoningContent =
        try container.decodeIfPresent(String.self, forKey: .reasoningContent)
        ?? container.decodeIfPresent(String.self, forKey: .reasoning)
      refusal = try container.decodeIfPresent(String.self, forKey: .refusal)
      var calls: [ToolCallDelta] = []
      if var array = try? container.nestedUnkeyedContainer(forKey: .toolCalls) {
        while !array.isAtEnd {
          let position = array.currentIndex
          var call = try array.decode(ToolCallDelta.self)
          call.index = call.index ?? position
          calls.append(call)
        }
      }
      toolCalls = calls
    }
  }

  /// A fragment of one tool call: the first usually carries the id and name,
  /// the rest carry more of the arguments text.
  public struct ToolCallDelta: Decodable, Sendable, Hashable {
    /// The call's position among the message's tool calls. When a server omits
    /// it, decoding uses the fragment's position in the `tool_calls` array.
    public var index: Int?

    /// The call's identifier, when this fragment carries it (some servers never send one).
    public var id: String?

    /// The call's type, `"function"`.
    public var type: String?

    /// The function's name and more of its arguments.
    public var function: FunctionDelta?

    /// Creates a tool call fragment.
    public init(index: Int? = nil, id: String? = nil, type: String? = nil, function: FunctionDelta? = nil) {
      self.index = index
      self.id = id
      self.type = type
      self.function = function
    }
  }

  /// A fragment of a function call.
  public struct FunctionDelta: Decodable, Sendable, Hashable {
    /// The function's name, when this fragment carries it.
    public var name: String?

    /// More of the arguments, as JSON text split at arbitrary places.
    public var arguments: String?

    /// Creates a function call fragment.
    public init(name: String? = nil, arguments: String? = nil) {
      self.name = name
      self.arguments = arguments
    }
  }
}
