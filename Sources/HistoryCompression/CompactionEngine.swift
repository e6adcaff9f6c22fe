import ModelSession

/// The one compaction routine of the history modifiers. It measures the
/// history, replays where the cuts fall (``CompactionPlan``), puts the
/// retained context back, summarizes what goes when its policy says so,
/// falls back when the summary cannot be had or does not fit, and records
/// the notes. Every decision that differs between modifiers is a field of
/// its ``CompactionPolicy``.
///
/// The notes of a new cut are recorded once the cut is certain: at once when
/// a failed summary would drop the same entries, after the summary when a
/// failure would keep a rolling window instead.
struct CompactionEngine {
  let policy: CompactionPolicy

  /// The history the model sees: `history` itself while nothing is cut,
  /// else the head, what the last cut keeps and the entries after it.
  ///
  /// - Throws: the token counter's error; `CancellationError` when the
  ///   generation is cancelled while the summarizer runs (a cancelled
  ///   generation ends, it does not fall back).
  func compact(_ history: Transcript, in context: ProfileModifierContext) async throws -> Transcript {
    // A summary committed earlier sits in front of the prompt after it; the cuts see the two apart.
    let entries =
      policy.commitsSummarizedHistory ? SummaryPrompt.separatingHead(history.entries) : history.entries
    let layout = HistoryLayout(entries)
    let measure = try await HistoryMeasure(entries, unit: policy.threshold, counter: policy.tokenCounter)
    let ledger = try await RetainedContextLedger(
      entries, unit: policy.threshold.retainedUnit, counter: policy.tokenCounter,
      retention: context.contextRetention)
    // Observed at every generation, so that a change of the instructions is seen when it happens.
    let breaks = await policy.prefixBreaks.breaks(in: entries, layout: layout, context: context)
    let plan = CompactionPlan(
      layout: layout, measure: measure, threshold: policy.threshold.value, target: policy.target,
      pinned: policy.pinned, summarySize: policy.summaryReserve, end: entries.count,
      breaks: policy.compactsAtPrefixBreaks ? breaks : [], ledger: ledger)
    if policy.notesOversizedTurn {
      noteOversizedTurn(plan: plan, layout: layout, measure: measure, end: entries.count, context: context)
    }
    guard var cut = plan.cuts.last else { return history }
    // The cut was planned with what the history held then; a key delivered
    // again since is in view: its copy goes (the plan's sizes stay an upper bound).
    cut.reattachment = cut.reattachment.removing(keys: ledger.keys(deliveredFrom: cut.madeAt))
    let compaction = Compaction(
      entries: entries, layout: layout, measure: measure, ledger: ledger, cuts: plan.cuts, cut: cut,
      prefixChanged: breaks.contains(entries.count))
    switch policy.summary {
    case .none:
      recordCut(compaction, in: context)
      return compaction.keeping(summary: nil)
    case .unavailable(let reason):
      return fallback(compaction, reason: reason, cutRecorded: false, in: context)
    case .summarize(let summaries):
      return try await summarized(compaction, summaries: summaries, in: context)
    }
  }

  /// The head, the summary of what the cut leaves out, then what it keeps;
  /// the policy's fallback when the summary cannot be had or does not fit.
  private func summarized(
    _ compaction: Compaction, summaries: CompactionSummaries, in context: ProfileModifierContext
  ) async throws -> Transcript {
    let cutIsCertain = policy.summaryFallback == .droppingTheSameEntries
    if cutIsCertain { recordCut(compaction, in: context) }
    let summary: Transcript.Entry
    do {
      summary = try await summaries.entry(
        of: compaction.entries, layout: compaction.layout, cuts: compaction.cuts, context: context,
        source: policy.source)
      // The summary counts against the threshold like any entry: one that does not fit is not used.
      let size =
        switch policy.threshold {
        case .entries: 1
        case .tokens: try await policy.tokenCounter.tokenCount(of: summary)
        }
      guard compaction.keptSize.addingSaturated(size) <= policy.threshold.value else {
        throw SummaryTooLarge(size: size, threshold: policy.threshold)
      }
    } catch {
      if Task.isCancelled { throw CancellationError() }
      return fallback(compaction, reason: error, cutRecorded: cutIsCertain, in: context)
    }
    if !cutIsCertain { recordCut(compaction, in: context) }
    let kept = compaction.keeping(summary: summary)
    guard policy.commitsSummarizedHistory else { return kept }
    // As in the framework, the summarized history becomes the session's history.
    context.commitHistory()
    return Transcript(
      entries: SummaryPrompt.mergingSummary(at: compaction.layout.hasInstructions ? 1 : 0, in: kept.entries))
  }

  /// What the policy keeps when the summary cannot be had (`reason`) or does not fit.
  private func fallback(
    _ compaction: Compaction, reason: any Error, cutRecorded: Bool, in context: ProfileModifierContext
  ) -> Transcript {
    let tooLarge = reason as? SummaryTooLarge
    let why = tooLarge == nil ? "\(reason)" : nil
    switch policy.summaryFallback {
    case .droppingTheSameEntries:
      if !cutRecorded { recordCut(compaction, in: context) }
      context.record(
        HistoryNote.droppedInstead(
          source: policy.source, reason: why, summaryTokens: tooLarge?.size, budget: policy.threshold.value))
      return compaction.keeping(summary: nil)
    case .rollingWindow:
      let window = RetainedWindow(
        layout: compaction.layout, measure: compaction.measure, ledger: compaction.ledger,
        budget: policy.threshold.value, end: compaction.entries.count)
      context.record(
        HistoryNote.windowInstead(
          source: policy.source, reason: why, summarySize: tooLarge?.size, window: policy.threshold.value,
          unit: policy.threshold.unitName))
      window.reattachment.record(in: context, source: policy.source)
      return window.apply(to: compaction.entries, head: compaction.layout.headEnd)
    }
  }

  /// The notes of the cut: what it compacted when it was made at this
  /// generation (or fitted the model's window on a retry), and what it puts
  /// back; only what it puts back when the tools or the instructions changed
  /// (they count at their new size, which can move the cut or shrink the
  /// room for retained context, so the previous plan cannot be replayed).
  private func recordCut(_ compaction: Compaction, in context: ProfileModifierContext) {
    let cut = compaction.cut
    let entries = compaction.entries
    let headEnd = compaction.layout.headEnd
    let firstKept = entries[cut.start].id
    if context.isRetryAfterContextOverflow && policy.fittedToOverflow {
      // The retry compacts against the window the model gave: the cuts can fall anywhere.
      context.record(
        HistoryNote.fittedToWindow(
          source: policy.source, budget: policy.threshold.value, firstKeptEntry: firstKept))
    } else if let previousEnd = HistoryLayout.previousGenerationEnd(entries, headEnd: headEnd),
      cut.madeAt > previousEnd
    {
      var summarizes = false
      if case .summarize = policy.summary { summarizes = true }
      context.record(
        HistoryNote.compacted(
          source: policy.source, count: cut.start - cut.dropFrom, summarized: summarizes,
          pinned: cut.dropFrom - headEnd, firstKeptEntry: firstKept))
    } else if !compaction.prefixChanged {
      return
    }
    cut.reattachment.record(in: context, source: policy.source)
  }

  /// Says so when the instructions and the current turn alone are over the
  /// threshold: the current turn is kept whole.
  private func noteOversizedTurn(
    plan: CompactionPlan, layout: HistoryLayout, measure: HistoryMeasure, end: Int,
    context: ProfileModifierContext
  ) {
    let headEnd = layout.headEnd
    let kept =
      measure.size(0..<headEnd) + measure.size(headEnd..<plan.pinEnd) + measure.size(plan.start..<end)
    let reserve = plan.start > headEnd ? policy.summaryReserve : 0
    guard kept.addingSaturated(reserve) > policy.threshold.value else { return }
    var unit: String?
    if case .entries = policy.threshold { unit = policy.threshold.unitName }
    context.record(
      HistoryNote.currentTurnOverBudget(
        source: policy.source, kept: kept, budget: policy.threshold.value, unit: unit))
  }
}

extension CompactionEngine {
  /// One compaction: the history, its measures, and the cut the plan made last.
  struct Compaction {
    let entries: [Transcript.Entry]
    let layout: HistoryLayout
    let measure: HistoryMeasure
    let ledger: RetainedContextLedger
    let cuts: [CompactionPlan.Cut]
    let cut: CompactionPlan.Cut
    /// Whether the tools or the instructions changed at this generation.
    let prefixChanged: Bool

    /// What the kept history takes without a summary: the instructions, the
    /// pinned turns, the retained context put back and the entries from the cut.
    var keptSize: Int {
      let instructions = layout.hasInstructions ? measure.size(0..<1) : 0
      return instructions + measure.size(layout.headEnd..<cut.dropFrom) + cut.reattachment.size
        + measure.size(cut.start..<entries.count)
    }

    /// The instructions, the pinned turns, `summary` (when there is one; it
    /// replaces the summaries in the head, and stays right after the
    /// instructions when nothing is pinned, where a modifier run after this
    /// one keeps it), the retained context the cut put back, then the entries
    /// from the cut.
    func keeping(summary: Transcript.Entry?) -> Transcript {
      var kept: [Transcript.Entry] = []
      kept.reserveCapacity(cut.dropFrom + 1 + cut.reattachment.entries.count + entries.count - cut.start)
      if let summary {
        if layout.hasInstructions { kept.append(entries[0]) }
        kept.append(contentsOf: entries[layout.headEnd..<cut.dropFrom])
        kept.append(summary)
      } else {
        kept.append(contentsOf: entries[..<cut.dropFrom])
      }
      kept.append(contentsOf: cut.reattachment.entries)
      kept.append(contentsOf: entries[cut.start...])
      return Transcript(entries: kept)
    }
  }
}
