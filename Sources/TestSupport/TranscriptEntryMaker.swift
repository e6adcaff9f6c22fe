import Foundation
import ModelSession

/// Builds transcript entries with readable, deterministic ids, for tests.
public enum Make {
  /// A text segment whose id is `s-` and the first 12 characters of `content`.
  public static func text(_ content: String) -> Transcript.Segment {
    .text(Transcript.TextSegment(id: "s-\(content.prefix(12))", content: content))
  }

  /// Instructions with the id `instructions` and no tool definitions.
  public static func instructions(_ content: String = "Be helpful.") -> Transcript.Entry {
    .instructions(Transcript.Instructions(id: "instructions", segments: [text(content)], toolDefinitions: []))
  }

  /// A prompt with id `id`; its text is `content`, or `question <id>`.
  public static func prompt(_ id: String, _ content: String? = nil) -> Transcript.Entry {
    .prompt(Transcript.Prompt(id: id, segments: [text(content ?? "question \(id)")]))
  }

  /// A response with id `id`; its text is `content`, or `answer <id>`.
  public static func response(_ id: String, _ content: String? = nil) -> Transcript.Entry {
    .response(Transcript.Response(id: id, assetIDs: [], segments: [text(content ?? "answer \(id)")]))
  }

  /// A reasoning entry with id `id` and the text `thinking <id>`.
  public static func reasoning(_ id: String) -> Transcript.Entry {
    .reasoning(Transcript.Reasoning(id: id, segments: [text("thinking \(id)")]))
  }

  /// A tool-calls entry with id `id`: one `weather` call per id in `callIDs`.
  public static func calls(_ id: String, _ callIDs: [String]) -> Transcript.Entry {
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

  /// The `weather` tool's output for the call `callID`.
  public static func output(_ callID: String, _ content: String = "21°C") -> Transcript.Entry {
    .toolOutput(Transcript.ToolOutput(id: callID, toolName: "weather", segments: [text(content)]))
  }

  /// A prompt with id `id` that holds an image and a question.
  public static func image(_ id: String) -> Transcript.Entry {
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

  /// A plain turn: prompt `p<number>` and response `r<number>`.
  public static func turn(_ number: Int) -> [Transcript.Entry] {
    [prompt("p\(number)"), response("r\(number)")]
  }

  /// A turn with one round of tool calls: prompt `p<number>`, entry `t<number>`
  /// with `callCount` parallel calls `c<number>-<i>`, their outputs, response `r<number>`.
  public static func toolTurn(_ number: Int, callCount: Int = 1) -> [Transcript.Entry] {
    let callIDs = (0..<callCount).map { "c\(number)-\($0)" }
    return [prompt("p\(number)"), calls("t\(number)", callIDs)] + callIDs.map { output($0) } + [
      response("r\(number)")
    ]
  }

  /// A modifier context for turn 0 at `round`, without tools.
  public static func context(round: Int = 0) -> ProfileModifierContext {
    ProfileModifierContext(turnIndex: 0, round: round, toolDefinitions: [], requestID: "test")
  }
}

extension Transcript {
  /// The ids of the entries, in order.
  public var ids: [String] { map(\.id) }
}
