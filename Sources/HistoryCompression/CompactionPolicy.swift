import ModelSession

/// What a compacting history modifier decides, as data; ``CompactionEngine``
/// carries it out. ``SummarizeHistory`` and ``CompactingHistory`` are two
/// such policies of the one engine: a new compacting modifier is a new
/// policy, not a new routine.
struct CompactionPolicy {
  /// How the entries that leave the history are replaced.
  enum Summary {
    /// They are dropped.
    case none
    /// They are replaced by one summary entry.
    case summarize(CompactionSummaries)
    /// They were to be summarized, but there is no summarizer (`reason`): the
    /// policy's fallback applies at every compaction.
    case unavailable(reason: any Error)
  }

  /// What the engine keeps when the summary cannot be had, or does not fit.
  enum SummaryFallback {
    /// The same cut, with the entries dropped instead of summarized.
    case droppingTheSameEntries
    /// A rolling window of the threshold's size (with the retained context put back).
    case rollingWindow
  }

  /// The modifier's name, the source of its notes.
  var source: String
  /// The size past which the history is compacted, in entries or tokens.
  var threshold: HistorySize
  /// The size a compaction brings the history down to, in the threshold's unit.
  var target: Int
  /// The most the oldest turns kept at every compaction may take.
  var pinned = 0
  /// The size set aside for the summary entry when choosing a cut.
  var summaryReserve = 0
  /// Whether a change of the tools or the instructions (a prefix break)
  /// makes the replay compact as soon as the history is over the target.
  var compactsAtPrefixBreaks = false
  /// How the entries that go are replaced.
  var summary = Summary.none
  /// What is kept when the summary cannot be had, or does not fit.
  var summaryFallback = SummaryFallback.droppingTheSameEntries
  /// Whether the limits were tightened to what the model's refusal of a
  /// prompt as too long says fits (the retry's compaction says so).
  var fittedToOverflow = false
  /// Whether a summarized history becomes the session's history, as in the
  /// framework (`ProfileModifierContext.commitHistory()`), with the summary
  /// written in front of the first prompt kept (see ``SummaryPrompt``); a
  /// fallback is never committed.
  var commitsSummarizedHistory = false
  /// Whether a note says so when the instructions and the current turn alone
  /// are over the threshold.
  var notesOversizedTurn = false
  /// What counts tokens, for a threshold in tokens.
  var tokenCounter: any TokenCounter
  /// Where the engine remembers when the tools or the instructions changed.
  var prefixBreaks: PrefixBreakLog
}
