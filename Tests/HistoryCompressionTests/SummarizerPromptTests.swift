import Foundation
import ModelSession
import Testing

@testable import HistoryCompression

@Suite(.timeLimit(.minutes(10))) struct `What the summarizer is shown` {
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
}
