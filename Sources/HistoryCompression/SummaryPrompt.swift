import ModelSession

/// How `summarizeHistory` writes a summary into the session's history: in
/// front of the prompt that follows it, as one prompt entry, the form the
/// companion package gives it (its tests pin it):
///
/// ```text
/// Summary of the conversation so far:
/// <summary>
///
/// <postamble>
///
/// <the prompt's own text>
/// ```
///
/// The entry keeps the prompt's id, options and response format; the
/// summary and the postamble are its first segments, whose ids start with
/// ``HistorySummary/entryIDPrefix``, so that the next compaction finds the
/// summary, folds it into the new one, and summarizes the prompt's own text
/// as conversation. An empty postamble leaves out its segment.
public enum SummaryPrompt {
  /// The line before the summary text.
  public static let heading = "Summary of the conversation so far:\n"

  /// What separates the summary, the postamble and the prompt's text.
  static let separator = "\n\n"

  /// `prompt` with the summary of the summary entry `summary` (see
  /// ``HistorySummary``) in front of its segments; `nil` when `summary` is
  /// not a summary entry.
  public static func merging(
    _ summary: Transcript.Entry, into prompt: Transcript.Prompt
  ) -> Transcript.Prompt? {
    guard let text = HistorySummary.summaryText(of: summary) else { return nil }
    let postamble = summary.segments.dropFirst().compactMap { segment -> String? in
      guard case .text(let text) = segment else { return nil }
      return text.content
    }.joined()
    var segments: [Transcript.Segment] = [
      .text(Transcript.TextSegment(id: summary.id + ".summary", content: heading + text + separator))
    ]
    if !postamble.isEmpty {
      segments.append(
        .text(Transcript.TextSegment(id: summary.id + ".postamble", content: postamble + separator)))
    }
    var merged = prompt
    merged.segments = segments + prompt.segments
    return merged
  }

  /// The summary entry and the prompt that `entry` merges (see
  /// ``merging(_:into:)``); `nil` when `entry` is not such a prompt.
  public static func separating(
    _ entry: Transcript.Entry
  ) -> (summary: Transcript.Entry, prompt: Transcript.Prompt)? {
    guard case .prompt(let prompt) = entry, let first = prompt.segments.first,
      case .text(let summarySegment) = first, summarySegment.id.hasPrefix(HistorySummary.entryIDPrefix),
      summarySegment.id.hasSuffix(".summary"), summarySegment.content.hasPrefix(heading),
      summarySegment.content.hasSuffix(separator)
    else { return nil }
    let summary = String(summarySegment.content.dropFirst(heading.count).dropLast(separator.count))
    var rest = prompt.segments.dropFirst()
    var postamble = ""
    if let second = rest.first, case .text(let postambleSegment) = second,
      postambleSegment.id.hasPrefix(HistorySummary.entryIDPrefix),
      postambleSegment.id.hasSuffix(".postamble"),
      postambleSegment.content.hasSuffix(separator)
    {
      postamble = String(postambleSegment.content.dropLast(separator.count))
      rest = rest.dropFirst()
    }
    var original = prompt
    original.segments = Array(rest)
    return (HistorySummary.entry(summary: summary, postamble: postamble), original)
  }

  /// `transcript` with the summary prompt at its head (after the
  /// instructions and any summary entries), if there is one, taken apart
  /// into its summary entry and its prompt: the form the modifiers' cuts
  /// work on, and a way for an app to show the summary on its own.
  public static func separated(_ transcript: Transcript) -> Transcript {
    Transcript(entries: separatingHead(transcript.entries))
  }

  /// `entries` with the summary prompt at the head taken apart (see ``separated(_:)``).
  static func separatingHead(_ entries: [Transcript.Entry]) -> [Transcript.Entry] {
    var index = 0
    if case .instructions = entries.first { index = 1 }
    while index < entries.count, entries[index].isHistorySummary { index += 1 }
    guard index < entries.count, let parts = separating(entries[index]) else { return entries }
    var separated = Array(entries[..<index])
    separated.append(parts.summary)
    separated.append(.prompt(parts.prompt))
    separated.append(contentsOf: entries[(index + 1)...])
    return separated
  }

  /// `entries` with the summary entry at `index` merged into the prompt
  /// right after it; unchanged when no prompt follows it directly (context
  /// put back after the cut comes first, say).
  static func mergingSummary(at index: Int, in entries: [Transcript.Entry]) -> [Transcript.Entry] {
    guard index + 1 < entries.count, case .prompt(let prompt) = entries[index + 1],
      let merged = merging(entries[index], into: prompt)
    else { return entries }
    var result = Array(entries[..<index])
    result.append(.prompt(merged))
    result.append(contentsOf: entries[(index + 2)...])
    return result
  }
}
