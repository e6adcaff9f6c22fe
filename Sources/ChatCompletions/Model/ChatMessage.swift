import ModelSession

/// One message of a chat completions request, before it is serialized.
struct ChatMessage: Sendable, Equatable {
  /// A message's `content`: plain text, or parts (text and images).
  enum Content: Sendable, Equatable {
    case text(String)
    case parts([GeneratedContent])
  }

  /// One call in an assistant message's `tool_calls`.
  struct ToolCall: Sendable, Equatable {
    var id: String
    var name: String
    var arguments: String
  }

  var role: String
  var content: Content?
  var reasoningContent: String?
  var toolCalls: [ToolCall] = []
  var toolCallID: String?

  /// The message as ordered JSON: `role`, `content` (`""` when there is
  /// none), `reasoning_content`, `tool_calls`, `tool_call_id`.
  var generatedContent: GeneratedContent {
    var properties: [(String, GeneratedContent)] = [("role", GeneratedContent(role))]
    switch content {
    case .text(let text): properties.append(("content", GeneratedContent(text)))
    case .parts(let parts): properties.append(("content", GeneratedContent(kind: .array(parts))))
    case nil:
      // An assistant message with only tool calls: llama-cpp-python rejects
      // `null`, and chat templates read `content` on every message.
      properties.append(("content", GeneratedContent("")))
    }
    if let reasoningContent {
      properties.append(("reasoning_content", GeneratedContent(reasoningContent)))
    }
    if !toolCalls.isEmpty {
      let calls = toolCalls.map { call in
        GeneratedContent(orderedProperties: [
          ("id", GeneratedContent(call.id)),
          ("type", GeneratedContent("function")),
          (
            "function",
            GeneratedContent(orderedProperties: [
              ("name", GeneratedContent(call.name)),
              ("arguments", GeneratedContent(call.arguments)),
            ])
          ),
        ])
      }
      properties.append(("tool_calls", GeneratedContent(kind: .array(calls))))
    }
    if let toolCallID {
      properties.append(("tool_call_id", GeneratedContent(toolCallID)))
    }
    return GeneratedContent(orderedProperties: properties)
  }
}
