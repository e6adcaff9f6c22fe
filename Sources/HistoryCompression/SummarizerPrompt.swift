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
      guard let line = line(for: entry) else { continue }
      text += line + "\n"
    }
    return text
  }

  private static func line(for entry: Transcript.Entry) -> String? {
    switch entry {
    case .instructions, .reasoning:
      return nil
    case .prompt(let prompt):
      if let summary = HistorySummary.summaryText(of: entry) { return "Earlier summary: " + summary }
      return "User: " + render(prompt.segments)
    case .response(let response):
      return "Assistant: " + render(response.segments)
    case .toolCalls(let calls):
      return calls.calls.map { "Assistant called the tool \($0.toolName) with \($0.arguments.jsonString)" }
        .joined(separator: "\n")
    case .toolOutput(let output):
      return "The tool \(output.toolName) returned: " + render(output.segments)
    }
  }

  private static func render(_ segments: [Transcript.Segment]) -> String {
    segments.map { segment in
      switch segment {
      case .text(let text): text.content
      case .structure(let structure): structure.content.jsonString
      case .attachment(let attachment): "[image\(attachment.label.map { ": \($0)" } ?? "")]"
      case .custom(let custom): "[\(type(of: custom).typeIdentifier)]"
      }
    }.joined(separator: "\n")
  }
}
