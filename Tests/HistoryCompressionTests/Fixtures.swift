import Foundation
import HistoryCompression
import ModelSession

/// Builds transcript entries with readable, deterministic ids.
enum Make {
  static func text(_ content: String) -> Transcript.Segment {
    .text(Transcript.TextSegment(id: "s-\(content.prefix(12))", content: content))
  }

  static func instructions(_ content: String = "Be helpful.") -> Transcript.Entry {
    .instructions(Transcript.Instructions(id: "instructions", segments: [text(content)], toolDefinitions: []))
  }

  static func prompt(_ id: String, _ content: String? = nil) -> Transcript.Entry {
    .prompt(Transcript.Prompt(id: id, segments: [text(content ?? "question \(id)")]))
  }

  static func response(_ id: String, _ content: String? = nil) -> Transcript.Entry {
    .response(Transcript.Response(id: id, assetIDs: [], segments: [text(content ?? "answer \(id)")]))
  }

  static func reasoning(_ id: String) -> Transcript.Entry {
    .reasoning(Transcript.Reasoning(id: id, segments: [text("thinking \(id)")]))
  }

  static func calls(_ id: String, _ callIDs: [String]) -> Transcript.Entry {
    .toolCalls(
      Transcript.ToolCalls(
        id: id,
        callIDs.map { callID in
          Transcript.ToolCall(
            id: callID, toolName: "weather",
            arguments: GeneratedContent(
              kind: .structure(
                properties: ["city": GeneratedContent(kind: .string("Oslo"))], orderedKeys: ["city"])))
        }))
  }

  static func output(_ callID: String, _ content: String = "21°C") -> Transcript.Entry {
    .toolOutput(Transcript.ToolOutput(id: callID, toolName: "weather", segments: [text(content)]))
  }

  static func image(_ id: String) -> Transcript.Entry {
    .prompt(
      Transcript.Prompt(
        id: id,
        segments: [
          text("what is this?"),
          .attachment(
            Transcript.AttachmentSegment(
              id: "\(id)-image",
              content: .image(Transcript.ImageAttachment(data: Data([1, 2, 3]), mimeType: "image/png")))),
        ]))
  }

  /// A plain turn: a prompt and a response.
  static func turn(_ number: Int) -> [Transcript.Entry] {
    [prompt("p\(number)"), response("r\(number)")]
  }

  /// A turn with one round of tool calls (`callCount` parallel calls).
  static func toolTurn(_ number: Int, callCount: Int = 1) -> [Transcript.Entry] {
    let callIDs = (0..<callCount).map { "c\(number)-\($0)" }
    return [prompt("p\(number)"), calls("t\(number)", callIDs)] + callIDs.map { output($0) } + [
      response("r\(number)")
    ]
  }

  static func context(round: Int = 0) -> ProfileModifierContext {
    ProfileModifierContext(turnIndex: 0, round: round, toolDefinitions: [], requestID: "test")
  }
}

extension Transcript {
  var ids: [String] { map(\.id) }
}
