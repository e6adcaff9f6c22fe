import Foundation
import ModelSession

/// The canonical text of each part of a request: deterministic, and the same
/// for two parts exactly when a server would read the same tokens for them.
///
/// Entry and segment ids are left out (a server never sees them); tool-call
/// ids and tool names are kept (chat templates write them). Images are named
/// by a digest of their bytes or by their URL.
enum PromptRenderer {
  static func text(of definition: Transcript.ToolDefinition) -> String {
    "tool \(definition.name)\n\(definition.description)\n\(definition.parameters.jsonSchema.jsonString)"
  }

  /// The settings line, or `nil` when no setting reaches the prompt.
  static func settingsText(of options: ContextOptions) -> String? {
    guard let level = options.reasoningLevel else { return nil }
    let name =
      switch level {
      case .low: "low"
      case .medium: "medium"
      case .high: "high"
      case .custom(let custom): custom
      }
    return "reasoning \(name)"
  }

  static func text(of schema: GenerationSchema) -> String {
    "responseSchema\n" + schema.jsonSchema.jsonString
  }

  /// The instructions entry's text, without its tool definitions (they are blocks of their own).
  static func text(of instructions: Transcript.Instructions) -> String {
    "instructions\n" + text(of: instructions.segments)
  }

  static func text(of entry: Transcript.Entry) -> String {
    switch entry {
    case .instructions(let instructions):
      return text(of: instructions)
    case .toolCalls(let calls):
      var lines = ["toolCalls"]
      for call in calls.calls {
        lines.append("call \(call.id) \(call.toolName) \(call.arguments.jsonString)")
      }
      return lines.joined(separator: "\n")
    case .toolOutput(let output):
      return "toolOutput \(output.id) \(output.toolName)\n" + text(of: output.segments)
    case .prompt, .response, .reasoning:
      return entry.kindName + "\n" + text(of: entry.segments)
    }
  }

  static func text(of segments: [Transcript.Segment]) -> String {
    segments.map(text(of:)).joined(separator: "\n")
  }

  private static func text(of segment: Transcript.Segment) -> String {
    switch segment {
    case .text(let text):
      return text.content
    case .structure(let structure):
      return structure.content.jsonString
    case .attachment(let attachment):
      let label = attachment.label.map { " " + $0 } ?? ""
      switch attachment.content {
      case .image(let image):
        switch image.source {
        case .data(let data, let mimeType):
          return "[image \(mimeType) \(data.count) bytes \(digest(of: data))\(label)]"
        case .url(let url):
          return "[image \(url.absoluteString)\(label)]"
        }
      }
    case .custom(let custom):
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      let json = (try? encoder.encode(custom)).flatMap { String(bytes: $0, encoding: .utf8) } ?? custom.id
      return "[\(type(of: custom).typeIdentifier) \(json)]"
    }
  }

  /// A 64-bit FNV-1a digest of the bytes, in hexadecimal: the same in every process.
  private static func digest(of data: Data) -> String {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data {
      value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return String(value, radix: 16)
  }
}
