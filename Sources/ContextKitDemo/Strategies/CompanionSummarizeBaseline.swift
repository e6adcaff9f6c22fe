import ModelSession
import Synchronization

/// BASELINE, not a ContextKit strategy: the companion package's history
/// summarizer, reproduced for the benchmark.
///
/// Once the history has more than `entryThreshold` entries, every
/// generation that ends with a prompt asks the summarizer for a new summary
/// of everything before that prompt (the previous summary included, so
/// summaries get re-summarized), and sends the instructions, the summary and
/// the prompt. It reproduces the known defects on purpose (DESIGN.md, "The
/// anchors"): the threshold counts entries, not tokens; a generation that
/// does not end with a prompt (inside a tool loop) is passed through
/// untouched, whatever its size; there is one summarizer round-trip per turn
/// past the threshold, and the summary, rewritten every turn, invalidates the
/// prompt cache right after the instructions; a summarizer error fails the
/// user's request. Use ContextKit's `summarizeHistory` or `compactingHistory` in apps.
package struct CompanionSummarizeBaseline: DynamicProfileModifier {
  /// The stage's name in generation records: `baseline.summarizeHistory(entryThreshold:)`.
  package var name: String { "baseline.summarizeHistory(entryThreshold:)" }
  /// The entries past which the history is summarized.
  package let entryThreshold: Int
  /// The summarizer.
  package let summarizer: any LanguageModel
  private let state = BaselineSummaryState()

  /// Creates the baseline summarizer.
  package init(entryThreshold: Int, summarizer: any LanguageModel) {
    self.entryThreshold = entryThreshold
    self.summarizer = summarizer
  }

  /// Summarizes everything before the last prompt when past the threshold and the last entry is a prompt.
  package func transformHistory(
    _ history: Transcript, in context: ProfileModifierContext
  ) async throws -> Transcript {
    let entries = history.entries
    guard entries.count > entryThreshold, case .prompt = entries.last else { return history }
    var instructions: [Transcript.Entry] = []
    var body = entries.dropLast()
    if case .instructions = body.first {
      instructions = [body.removeFirst()]
    }
    let previous = state.summary
    var lines: [String] = []
    if let previous { lines.append("Summary so far: \(previous)") }
    for entry in body { lines.append(Self.line(for: entry)) }
    let summary = try await summarize(summarizer, lines.joined(separator: "\n"))
    state.summary = summary
    context.record(
      GenerationNote(
        source: name, kind: .historyRewritten, message: "re-summarized \(body.count) entries",
        counts: [.entriesSummarized: body.count]))
    let summaryEntry = Transcript.Entry.prompt(
      Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: "Conversation summary: " + summary))]
      ))
    return Transcript(entries: instructions + [summaryEntry] + [entries[entries.count - 1]])
  }

  private func summarize(_ model: some LanguageModel, _ text: String) async throws -> String {
    let session = LanguageModelSession(model: model, instructions: "Summarize the conversation.")
    return try await session.respond(to: text).content
  }

  private static func line(for entry: Transcript.Entry) -> String {
    let text = entry.segments.compactMap { segment in
      if case .text(let text) = segment { text.content } else { nil }
    }.joined(separator: " ")
    return "\(entry.kindName): \(text)"
  }
}

/// The summary the baseline made last, kept between generations.
private final class BaselineSummaryState: Sendable {
  private let value = Mutex<String?>(nil)

  var summary: String? {
    get { value.withLock { $0 } }
    set { value.withLock { $0 = newValue } }
  }
}
