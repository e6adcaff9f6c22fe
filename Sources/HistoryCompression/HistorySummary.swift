import ModelSession

/// How a summary of earlier history appears in a transcript: a prompt entry
/// placed right after the instructions, whose id starts with
/// ``HistorySummary/entryIDPrefix``.
///
/// Modifiers recognize summary entries by that id: a rolling window keeps
/// them with the instructions, and the next compaction folds the summary
/// into the new one instead of summarizing it as if it were conversation.
///
/// ```swift
/// let summaries = sentTranscript.filter(\.isHistorySummary)
/// ```
public enum HistorySummary {
  /// The prefix of a summary entry's id; the rest is a digest of the entry's text.
  public static let entryIDPrefix = "contextkit.summary."

  /// The line before the summary text.
  static let heading = "Summary of the earlier part of this conversation:\n\n"

  /// Whether `entry` is a summary entry.
  public static func isSummary(_ entry: Transcript.Entry) -> Bool {
    guard case .prompt(let prompt) = entry else { return false }
    return prompt.id.hasPrefix(entryIDPrefix)
  }

  /// The summary text of a summary entry, or of a prompt that starts with
  /// one (see ``SummaryPrompt``), without the heading and the postamble;
  /// `nil` for any other entry.
  public static func summaryText(of entry: Transcript.Entry) -> String? {
    if !isSummary(entry), let parts = SummaryPrompt.separating(entry) {
      return summaryText(of: parts.summary)
    }
    guard isSummary(entry) else { return nil }
    guard let segment = entry.segments.first, case .text(let text) = segment else { return "" }
    guard text.content.hasPrefix(heading) else { return text.content }
    return String(text.content.dropFirst(heading.count))
  }

  /// A summary entry. Its id and segment ids derive from its text, so the
  /// same summary always gives the same entry, byte for byte.
  public static func entry(summary: String, postamble: String) -> Transcript.Entry {
    var digest = StableDigest()
    digest.add(summary)
    digest.add(postamble)
    let id = entryIDPrefix + digest.hex
    var segments: [Transcript.Segment] = [
      .text(Transcript.TextSegment(id: id + ".summary", content: heading + summary))
    ]
    if !postamble.isEmpty {
      segments.append(.text(Transcript.TextSegment(id: id + ".postamble", content: postamble)))
    }
    return .prompt(Transcript.Prompt(id: id, segments: segments))
  }
}

extension Transcript.Entry {
  /// Whether the entry is a summary of earlier history (see ``HistorySummary``).
  public var isHistorySummary: Bool { HistorySummary.isSummary(self) }

  /// Whether the entry is a summary of earlier history or a prompt that
  /// starts with one (the form `summarizeHistory` commits, see ``SummaryPrompt``).
  public var containsHistorySummary: Bool {
    isHistorySummary || SummaryPrompt.separating(self) != nil
  }
}

/// A 64-bit FNV-1a digest: the same bytes give the same value in every process.
struct StableDigest {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(_ text: String) {
    for byte in text.utf8 {
      value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    // A separator, so that ("ab", "c") and ("a", "bc") differ.
    value = (value ^ 0xff) &* 0x0000_0100_0000_01b3
  }

  /// Sixteen lowercase hexadecimal digits.
  var hex: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
