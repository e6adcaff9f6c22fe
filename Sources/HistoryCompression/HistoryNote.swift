import ModelSession

/// The generation notes the history modifiers record: each built from its
/// fields (entries dropped or summarized, the first entry kept, the budget),
/// its message rendered from them. One place, so the texts stay one family.
enum HistoryNote {
  /// The instructions and the current turn alone are over the budget (or the
  /// window): the turn is kept whole. `unit` is `nil` for a token budget.
  static func currentTurnOverBudget(source: String, kept: Int, budget: Int, unit: String?) -> GenerationNote {
    var names: [GenerationNote.Field: [String]] = [:]
    names[.unit] = unit.map { [$0] }
    return note(source, .information, names: names, counts: [.kept: kept, .budget: budget]) { note in
      let kept = note.counts[.kept] ?? 0
      let budget = note.counts[.budget] ?? 0
      guard let unit = note.names(.unit).first else {
        return
          "the instructions and the current turn take \(kept) tokens, more than the budget of \(budget); "
          + "kept the current turn whole"
      }
      return "the instructions and the current turn take \(kept) \(unit), more than the window of \(budget) "
        + "\(unit); kept the current turn whole"
    }
  }

  /// A rolling window that starts later than at the previous generation.
  static func windowMoved(source: String, firstKeptEntry: String, dropped: Int) -> GenerationNote {
    note(
      source, .historyRewritten, names: [.firstKeptEntry: [firstKeptEntry]],
      counts: [.entriesDropped: dropped]
    ) {
      "the window moved: it now starts at entry \($0.names(.firstKeptEntry).joined()) and drops "
        + "\($0.counts[.entriesDropped] ?? 0) older entries"
    }
  }

  /// A compaction made at this generation: `count` entries after the
  /// `pinned` ones dropped or summarized, verbatim from `firstKeptEntry`.
  static func compacted(
    source: String, count: Int, summarized: Bool, pinned: Int, firstKeptEntry: String
  ) -> GenerationNote {
    var counts: [GenerationNote.Field: Int] = [summarized ? .entriesSummarized : .entriesDropped: count]
    if pinned > 0 { counts[.pinnedEntries] = pinned }
    return note(source, .historyRewritten, names: [.firstKeptEntry: [firstKeptEntry]], counts: counts) {
      note in
      let summarized = note.counts[.entriesSummarized]
      return "compacted: \(summarized ?? note.counts[.entriesDropped] ?? 0) entries "
        + (summarized == nil ? "dropped" : "summarized")
        + (note.counts[.pinnedEntries].map { " after the \($0) pinned ones" } ?? "")
        + "; the history is verbatim from entry \(note.names(.firstKeptEntry).joined())"
    }
  }

  /// A compaction on the retry after a context overflow, to the model's window.
  static func fittedToWindow(source: String, budget: Int, firstKeptEntry: String) -> GenerationNote {
    note(source, .historyRewritten, names: [.firstKeptEntry: [firstKeptEntry]], counts: [.budget: budget]) {
      "compacted to fit the model's window: at most \($0.counts[.budget] ?? 0) tokens of history, "
        + "verbatim from entry \($0.names(.firstKeptEntry).joined())"
    }
  }

  /// The summarizer answered: `count` entries summarized, and the previous
  /// summary folded in when there was one.
  static func summaryMade(source: String, count: Int, foldedPrevious: Bool) -> GenerationNote {
    var counts: [GenerationNote.Field: Int] = [.entriesSummarized: count]
    if foldedPrevious { counts[.summariesFolded] = 1 }
    return note(source, .information, counts: counts) {
      "summarized \($0.counts[.entriesSummarized] ?? 0) entries"
        + ($0.counts[.summariesFolded] == nil ? "" : ", folding in the previous summary")
    }
  }

  /// The summarizer failed (`reason`) or its summary of `summaryTokens` did
  /// not fit under `budget` tokens: the older turns are dropped instead.
  static func droppedInstead(
    source: String, reason: String?, summaryTokens: Int?, budget: Int
  ) -> GenerationNote {
    fallback(source, reason: reason, summarySize: summaryTokens, budget: budget, unit: nil) { note in
      guard let tokens = note.counts[.summarySize] else {
        return "the summarizer failed (\(note.names(.reason).joined())); dropped the older turns instead"
      }
      return "the summary takes \(tokens) tokens, which would put the history over the budget "
        + "of \(note.counts[.budget] ?? 0); dropped the older turns instead"
    }
  }

  /// The summarizer failed (`reason`) or its summary of `summarySize` did not
  /// fit under the threshold of `window` `unit`: a rolling window of that size
  /// is kept instead.
  static func windowInstead(
    source: String, reason: String?, summarySize: Int?, window: Int, unit: String
  )
    -> GenerationNote
  {
    fallback(source, reason: reason, summarySize: summarySize, budget: window, unit: unit) { note in
      let window = note.counts[.budget] ?? 0
      let unit = note.names(.unit).joined()
      let why =
        note.counts[.summarySize].map {
          "the summary takes \($0) \(unit), which would put the history over the threshold of \(window) \(unit)"
        } ?? "the summarizer failed (\(note.names(.reason).joined()))"
      return why + "; kept a rolling window of \(window) \(unit) instead"
    }
  }

  private static func fallback(
    _ source: String, reason: String?, summarySize: Int?, budget: Int, unit: String?,
    render: (GenerationNote) -> String
  ) -> GenerationNote {
    var names: [GenerationNote.Field: [String]] = [:]
    names[.reason] = reason.map { [$0] }
    names[.unit] = unit.map { [$0] }
    var counts: [GenerationNote.Field: Int] = [.budget: budget]
    counts[.summarySize] = summarySize
    return note(source, .fallback, names: names, counts: counts, render: render)
  }

  /// The completed tool calls of the previous turn left the history, from `firstDroppedEntry`.
  static func completedToolCallsDropped(source: String, firstDroppedEntry: String) -> GenerationNote {
    note(source, .historyRewritten, names: [.firstDroppedEntry: [firstDroppedEntry]]) {
      "dropped the completed tool calls of the previous turn, from entry \($0.names(.firstDroppedEntry).joined())"
    }
  }

  /// Retained context (`key`) that left the history with its completed call.
  static func leftWithToolCall(source: String, key: String) -> GenerationNote {
    note(source, .contextLeftOut, names: [.keys: [key]]) {
      "\"\($0.names(.keys).joined())\" left the history with its completed tool call; the tool that "
        + "delivered it delivers it again when called"
    }
  }

  /// A note with its fields and the message `render` makes of them.
  private static func note(
    _ source: String, _ kind: GenerationNote.Kind, names: [GenerationNote.Field: [String]] = [:],
    counts: [GenerationNote.Field: Int] = [:], render: (GenerationNote) -> String
  ) -> GenerationNote {
    var note = GenerationNote(source: source, kind: kind, message: "", names: names, counts: counts)
    note.message = render(note)
    return note
  }
}
