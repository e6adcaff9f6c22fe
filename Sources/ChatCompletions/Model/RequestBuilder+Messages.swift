import Foundation
import ModelSession

extension RequestBuilder {
  /// The transcript as chat messages.
  ///
  /// Instructions → `system`; prompt → `user` (text, or parts when it has
  /// images); tool calls → `assistant` with `tool_calls` (merged into the
  /// assistant message of a response just before them); tool output → `tool`
  /// with `tool_call_id`; response → `assistant`; reasoning →
  /// `reasoning_content` on the next assistant message.
  func messages(for transcript: Transcript) throws -> [ChatMessage] {
    var messages: [ChatMessage] = []
    var pendingReasoning: String?
    var lastResponseIndex: Int?
    for entry in transcript {
      var responseIndex: Int?
      switch entry {
      case .instructions(let instructions):
        let text = try Self.text(of: instructions.segments, in: entry)
        if !text.isEmpty {
          messages.append(ChatMessage(role: "system", content: .text(text)))
        }
      case .prompt(let prompt):
        messages.append(ChatMessage(role: "user", content: try Self.content(of: prompt.segments, in: entry)))
      case .toolCalls(let toolCalls):
        let calls = toolCalls.calls.map {
          ChatMessage.ToolCall(id: $0.id, name: $0.toolName, arguments: $0.arguments.jsonString)
        }
        if let index = lastResponseIndex {
          messages[index].toolCalls += calls
        } else {
          messages.append(ChatMessage(role: "assistant", content: nil, toolCalls: calls))
          Self.attach(&pendingReasoning, to: &messages)
        }
      case .toolOutput(let output):
        messages.append(
          ChatMessage(
            role: "tool", content: .text(try Self.text(of: output.segments, in: entry)), toolCallID: output.id
          ))
      case .response(let response):
        guard !response.segments.isEmpty else { break }
        messages.append(
          ChatMessage(role: "assistant", content: .text(try Self.text(of: response.segments, in: entry))))
        Self.attach(&pendingReasoning, to: &messages)
        responseIndex = messages.count - 1
      case .reasoning(let reasoning):
        let text = try Self.text(of: reasoning.segments, in: entry)
        pendingReasoning = (pendingReasoning ?? "") + text
      }
      lastResponseIndex = responseIndex
    }
    return messages
  }

  /// Puts the pending reasoning on the last message and clears it.
  private static func attach(_ reasoning: inout String?, to messages: inout [ChatMessage]) {
    guard let text = reasoning, !messages.isEmpty else { return }
    messages[messages.count - 1].reasoningContent = text
    reasoning = nil
  }

  /// The text of segments: text as is, structures as compact JSON, joined
  /// with newlines. Images and custom segments are not text.
  static func text(of segments: [Transcript.Segment], in entry: Transcript.Entry) throws -> String {
    var pieces: [String] = []
    for segment in segments {
      switch segment {
      case .text(let text): pieces.append(text.content)
      case .structure(let structure): pieces.append(structure.content.jsonString)
      case .attachment:
        throw unsupported(entry, "an image can only be sent in a prompt")
      case .custom(let custom):
        throw unsupported(entry, "the custom segment \(custom.id) has no chat completions form")
      }
    }
    return pieces.joined(separator: "\n")
  }

  /// A prompt's content: plain text, or parts when it has an image (a data
  /// URL for image data, the URL itself for an image URL).
  static func content(
    of segments: [Transcript.Segment], in entry: Transcript.Entry
  ) throws -> ChatMessage.Content {
    let hasImage = segments.contains { if case .attachment = $0 { true } else { false } }
    guard hasImage else { return .text(try text(of: segments, in: entry)) }
    var parts: [GeneratedContent] = []
    for segment in segments {
      switch segment {
      case .text(let text): parts.append(textPart(text.content))
      case .structure(let structure): parts.append(textPart(structure.content.jsonString))
      case .attachment(let attachment):
        switch attachment.content {
        case .image(let image): parts.append(imagePart(image))
        }
      case .custom(let custom):
        throw unsupported(entry, "the custom segment \(custom.id) has no chat completions form")
      }
    }
    return .parts(parts)
  }

  private static func textPart(_ text: String) -> GeneratedContent {
    GeneratedContent(orderedProperties: [
      ("type", GeneratedContent("text")), ("text", GeneratedContent(text)),
    ])
  }

  private static func imagePart(_ image: Transcript.ImageAttachment) -> GeneratedContent {
    let url: String
    switch image.source {
    case .data(let data, let mimeType): url = "data:\(mimeType);base64,\(data.base64EncodedString())"
    case .url(let location): url = location.absoluteString
    }
    return GeneratedContent(orderedProperties: [
      ("type", GeneratedContent("image_url")),
      ("image_url", GeneratedContent(orderedProperties: [("url", GeneratedContent(url))])),
    ])
  }

  private static func unsupported(_ entry: Transcript.Entry, _ reason: String) -> LanguageModelError {
    .unsupportedTranscriptContent(
      .init(unsupportedContent: [entry], debugDescription: "\(entry.kindName) entry \(entry.id): \(reason)"))
  }
}
