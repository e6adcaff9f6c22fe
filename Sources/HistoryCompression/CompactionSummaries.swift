import ModelSession

/// The one summary routine of the summarizing modifiers (``SummarizeHistory``
/// and ``CompactingHistory``): the summary of everything a plan's cuts left
/// out, computed once per range of content and kept in a ``SummaryStore``,
/// folding in the summary of the previous cut so that a summary is never
/// summarized as if it were conversation.
///
/// A summary is keyed by the content it stands for and by the summarizer's
/// settings: the model's value (its description and its executor
/// configuration, so two models of one type with different settings do not
/// share summaries) and the instructions. A summarizer that failed on a
/// range is not asked again for that range within `retryDelay`: until then
/// the routine throws ``Summarizer/RecentFailure`` at once, so that a
/// summarizer that is down does not add its timeout to every generation.
struct CompactionSummaries {
  let model: any LanguageModel
  let instructions: Instructions
  let timeout: Duration
  let retryDelay: Duration
  let store: SummaryStore
  /// The text placed after the summary, for the main model.
  let postamble: String

  /// The summary of the entries the last of `cuts` leaves out (with any
  /// summary already in the head folded in).
  ///
  /// - Throws: the summarizer's error, ``Summarizer/Timeout``,
  ///   ``Summarizer/EmptySummary``, or ``Summarizer/RecentFailure`` when the
  ///   same range failed less than `retryDelay` ago.
  func summary(
    of entries: [Transcript.Entry], layout: HistoryLayout, cuts: [CompactionPlan.Cut],
    context: ProfileModifierContext, source: String
  ) async throws -> String {
    let keys = CompactionPlan.Cut.rangeKeys(
      of: cuts, in: entries, layout: layout, seed: Self.modelKey(model) + [instructions.text])
    guard let lastKey = keys.last, let lastCut = cuts.last else { return "" }
    let earlier = await store.latest(among: keys)
    if let earlier, earlier.index == keys.count - 1 { return earlier.summary }
    let previous =
      earlier?.summary
      ?? layout.summaryRange.compactMap { HistorySummary.summaryText(of: entries[$0]) }
      .joined(separator: "\n\n")
    let range = Self.newlyLeftOut(entries, last: lastCut, earlier: earlier.map { cuts[$0.index] })
    if let reason = await store.recentFailure(for: lastKey, within: retryDelay) {
      throw Summarizer.RecentFailure(reason: reason, retryDelay: retryDelay)
    }
    let summarizer = Summarizer(model: model, instructions: instructions, timeout: timeout)
    let summary = try await store.summary(for: lastKey) {
      try await summarizer.summarize(previousSummary: previous.isEmpty ? nil : previous, entries: range)
    }
    context.record(
      HistoryNote.summaryMade(source: source, count: range.count, foldedPrevious: !previous.isEmpty))
    return summary
  }

  /// The summary entry (see ``HistorySummary``) of the entries the last of
  /// `cuts` leaves out, with the postamble after the summary.
  ///
  /// - Throws: as ``summary(of:layout:cuts:context:source:)``.
  func entry(
    of entries: [Transcript.Entry], layout: HistoryLayout, cuts: [CompactionPlan.Cut],
    context: ProfileModifierContext, source: String
  ) async throws -> Transcript.Entry {
    let text = try await summary(of: entries, layout: layout, cuts: cuts, context: context, source: source)
    return HistorySummary.entry(summary: text, postamble: postamble)
  }

  /// The entries `last` leaves out that the summary made at `earlier` does
  /// not stand for yet: all of them without an earlier summary.
  static func newlyLeftOut(
    _ entries: [Transcript.Entry], last: CompactionPlan.Cut, earlier: CompactionPlan.Cut?
  ) -> ArraySlice<Transcript.Entry> {
    guard let earlier else { return entries[last.dropFrom..<last.start] }
    if earlier.dropFrom == last.dropFrom { return entries[earlier.start..<last.start] }
    // The pinned turns were given up since: they are left out now as well.
    return ArraySlice(entries[last.dropFrom..<earlier.dropFrom] + entries[earlier.start..<last.start])
  }

  /// The parts of the memo key that name the summarizer model: its value as
  /// text and its executor configuration (a reference type's identity included).
  static func modelKey(_ model: any LanguageModel) -> [String] {
    var parts = [String(reflecting: model), String(configurationHash(of: model))]
    if type(of: model) is AnyClass {
      parts.append(String(describing: ObjectIdentifier(model as AnyObject)))
    }
    return parts
  }

  private static func configurationHash(of model: some LanguageModel) -> Int {
    model.executorConfiguration.hashValue
  }
}
