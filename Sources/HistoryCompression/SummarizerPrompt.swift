import ModelSession

/// The prompt a summarizer receives: the previous summary, if any, then the
/// part of the conversation to fold into it, written as plain text.
enum SummarizerPrompt {
  /// The prompt for `entries`, folding in `previousSummary`.
  static func text(previousSummary: String?, entries: ArraySlice<Transcript.Entry>) -> String {
    var text = ""
    if let previousSummary, !previousSummary.isEmpty {
      text += "The summary of the conversation so far:\n\n" + previousSummary + "\n\n"
      text += "Rewrite it as one summary that also covers this next part of the conversation:\n\n"
    } else {
      text += "Summarize this conversation:\n\n"
    }
    for entry in entries {
      append(entry, to: &text)
    }
    return text
  }

  private static func append(_ entry: Transcript.Entry, to text: inout String) {
    switch entry {
    case .instructions, .reasoning:
      return
    case .prompt(let prompt):
      if let parts = SummaryPrompt.separating(entry) {
        // A prompt summarizeHistory wrote its summary in front of: the summary, then the user's words.
        text += "Earlier summary: " + (HistorySummary.summaryText(of: parts.summary) ?? "") + "\n"
        text += "User: "
        append(parts.prompt.segments, to: &text)
      } else if let summary = HistorySummary.summaryText(of: entry) {
        text += "Earlier summary: " + summary + "\n"
      } else {
        text += "User: "
        append(prompt.segments, to: &text)
      }
    case .response(let response):
      text += "Assistant: "
      append(response.segments, to: &text)
    case .toolCalls(let calls):
      for call in calls.calls {
        text += "Assistant called the tool " + call.toolName + " with " + call.arguments.jsonString + "\n"
      }
    case .toolOutput(let output):
      text += "The tool " + output.toolName + " returned: "
      append(output.segments, to: &text)
    }
  }

  private static func append(_ segments: [Transcript.Segment], to text: inout String) {
    for segment in segments {
      switch segment {
      case .text(let segment): text += segment.content
      case .structure(let structure): text += structure.content.jsonString
      case .attachment(let attachment): text += "[image" + (attachment.label.map { ": " + $0 } ?? "") + "]"
      case .custom(let custom): text += "[" + type(of: custom).typeIdentifier + "]"
      }
      text += "\n"
    }
  }
}
