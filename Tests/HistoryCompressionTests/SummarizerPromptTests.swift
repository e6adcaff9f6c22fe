import Foundation
import ModelSession
import Testing

@testable import HistoryCompression

@Suite("What the summarizer is shown", .timeLimit(.minutes(10))) struct SummarizerPromptTests {
  @Test func `an image is shown by its label`() {
    let entries: [Transcript.Entry] = [
      .prompt(
        Transcript.Prompt(
          id: "p",
          segments: [
            .text(Transcript.TextSegment(id: "t", content: "what is this?")),
            .attachment(
              Transcript.AttachmentSegment(
                id: "a",
                content: .image(Transcript.ImageAttachment(data: Data([1, 2, 3]), mimeType: "image/png")),
                label: "receipt")),
          ]))
    ]
    // Each segment ends in a newline; the image is "[image: <label>]".
    #expect(
      SummarizerPrompt.text(previousSummary: nil, entries: entries[...])
        == "Summarize this conversation:\n\nUser: what is this?\n[image: receipt]\n")
  }

  @Test func `each entry is one labelled line, and instructions and reasoning are left out`() {
    func text(_ content: String) -> Transcript.Segment {
      .text(Transcript.TextSegment(id: "s", content: content))
    }
    let arguments = GeneratedContent(
      kind: .structure(properties: ["city": GeneratedContent(kind: .string("Oslo"))], orderedKeys: ["city"]))
    let entries: [Transcript.Entry] = [
      .instructions(Transcript.Instructions(id: "i", segments: [text("Be brief.")], toolDefinitions: [])),
      .prompt(Transcript.Prompt(id: "p", segments: [text("Weather in Oslo?")])),
      .reasoning(Transcript.Reasoning(id: "r", segments: [text("I should look it up.")])),
      .toolCalls(
        Transcript.ToolCalls(
          id: "c", [Transcript.ToolCall(id: "1", toolName: "weather", arguments: arguments)])),
      .toolOutput(Transcript.ToolOutput(id: "1", toolName: "weather", segments: [text("4 degrees")])),
      .response(Transcript.Response(id: "a", assetIDs: [], segments: [text("It is 4 degrees.")])),
    ]
    // Written out by hand: the previous summary, then one line per segment, each labelled by who said it.
    let expected = """
      The summary of the conversation so far:

      The user greeted the assistant.

      Rewrite it as one summary that also covers this next part of the conversation:

      User: Weather in Oslo?
      Assistant called the tool weather with {"city":"Oslo"}
      The tool weather returned: 4 degrees
      Assistant: It is 4 degrees.

      """
    #expect(
      SummarizerPrompt.text(previousSummary: "The user greeted the assistant.", entries: entries[...])
        == expected)
  }
}
