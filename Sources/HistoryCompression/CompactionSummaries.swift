import ModelSession

/// The summaries of a compacting modifier: the summary of the history before
/// the last of its cuts, computed once per range of content and kept in a
/// ``SummaryStore``, folding in the summary of the previous cut so that a
/// summary is never summarized as if it were conversation.
struct CompactionSummaries {
  let model: any LanguageModel
  let instructions: Instructions
  let timeout: Duration
  let store: SummaryStore

  /// The summary of the history before the last cut.
  func summary(
    of entries: [Transcript.Entry], layout: HistoryLayout, cuts: [CompactionPlan.Cut],
    context: ProfileModifierContext, source: String
  ) async throws -> String {
    let keys = CompactionPlan.Cut.rangeKeys(
      of: cuts, in: entries, layout: layout,
      seed: ["compactingHistory", String(reflecting: type(of: model)), instructions.text])
    guard let lastKey = keys.last, let lastCut = cuts.last else { return "" }
    let earlier = await store.latest(among: keys)
    if let earlier, earlier.index == keys.count - 1 { return earlier.summary }
    let previous =
      earlier?.summary
      ?? layout.summaryRange.compactMap { HistorySummary.summaryText(of: entries[$0]) }
      .joined(separator: "\n\n")
    let from = earlier.map { cuts[$0.index].start } ?? layout.headEnd
    let range = entries[from..<lastCut.start]
    let summarizer = Summarizer(model: model, instructions: instructions, timeout: timeout)
    let summary = try await store.summary(for: lastKey) {
      try await summarizer.summarize(previousSummary: previous.isEmpty ? nil : previous, entries: range)
    }
    context.record(
      GenerationNote(
        source: source, kind: .information,
        message:
          "summarized \(range.count) entries\(previous.isEmpty ? "" : ", folding in the previous summary")"
      ))
    return summary
  }
}
