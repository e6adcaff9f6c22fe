import ModelSession

/// Where a compacting modifier cuts a history, decided so that the cuts only
/// ever move forward, in large steps, as the history grows.
///
/// The plan replays the history entry by entry, as if the modifier had run
/// after each one: whenever the visible size passes the threshold, the
/// entries after the pinned oldest turns, up to the first turn start that
/// brings the size (the retained context put back included) down to the
/// target, are dropped (or, at the least,
/// everything before the current turn). Because the replay depends only on
/// the entries (and on the positions of the prefix breaks it is given), the
/// same history always gives the same cuts, and a longer history gives the
/// same cuts plus, perhaps, later ones: the visible prefix stays the same
/// between two compactions.
///
/// Pinned turns are the oldest turns of the conversation, up to `pinned` in
/// size, chosen at the first compaction and kept at every later one. They
/// sit right after the instructions and never move, so a server keeps
/// reusing them from its cache: a compaction only re-processes what follows
/// them. (They are given up when they and the current turn no longer fit the
/// threshold together.)
///
/// A prefix break (the tools or the instructions changed before the
/// generation at that position) makes the server re-process the whole
/// history anyway. At a break the replay compacts as soon as the history is
/// over the target, so that the compaction rides on a re-processing that
/// happens in any case instead of costing one of its own later.
struct CompactionPlan {
  /// One compaction of the replay.
  struct Cut: Equatable {
    /// The first conversation entry that the compaction leaves out: the end of the pinned turns.
    var dropFrom: Int
    /// The first conversation entry kept verbatim after the entries left out.
    var start: Int
    /// The length of the history when the replay made this cut.
    var madeAt: Int
    /// The retained context the cut put back right after the entries left
    /// out, counted in the history's size from then on.
    var reattachment = Reattachment.none
  }

  /// The compactions, oldest first.
  let cuts: [Cut]
  /// The end of the pinned turns (the head's end when none are pinned).
  let pinEnd: Int
  /// The first entry kept verbatim after the entries left out (the head's end when nothing is cut).
  let start: Int

  /// Replays `layout`'s history up to `end`.
  ///
  /// - Parameters:
  ///   - threshold: the size past which the replay compacts.
  ///   - target: the size a compaction brings the history down to.
  ///   - pinned: the most the oldest turns kept at every compaction may take.
  ///   - summarySize: the size the summary entry adds when the head holds none yet.
  ///   - breaks: the history lengths at which the prefix before the history changed.
  ///   - ledger: the retained context to put back after each cut, within the
  ///     room the cut leaves under `threshold`.
  init(
    layout: HistoryLayout, measure: HistoryMeasure, threshold: Int, target: Int, pinned: Int = 0,
    summarySize: Int, end: Int, breaks: Set<Int> = [], breakLimit: Int? = nil,
    ledger: RetainedContextLedger = .empty
  ) {
    var replay = Replay(
      layout: layout, measure: measure, threshold: threshold, target: target, pinned: pinned,
      summarySize: summarySize, ledger: ledger)
    var position = layout.headEnd + 1
    while position <= end {
      replay.observe(position: position, limit: breaks.contains(position) ? breakLimit ?? target : threshold)
      position += 1
    }
    cuts = replay.cuts
    pinEnd = cuts.last?.dropFrom ?? layout.headEnd
    start = cuts.last?.start ?? layout.headEnd
  }
}

extension CompactionPlan {
  /// The replay's state: the cuts so far, and the turn indices (into the
  /// layout's cut points) of the last cut, of the pinned turns' end and of
  /// the current turn.
  private struct Replay {
    let measure: HistoryMeasure
    let points: [Int]
    let headEnd: Int
    let headSize: Int
    let addedSummary: Int
    let threshold: Int
    let target: Int
    let pinned: Int
    let ledger: RetainedContextLedger
    var cuts: [Cut] = []
    var cutIndex = 0
    var pinIndex = 0
    var pinChosen: Bool
    var turnIndex = 0
    var reattached = 0

    init(
      layout: HistoryLayout, measure: HistoryMeasure, threshold: Int, target: Int, pinned: Int,
      summarySize: Int, ledger: RetainedContextLedger
    ) {
      self.measure = measure
      points = layout.cutPoints
      headEnd = layout.headEnd
      headSize = measure.size(0..<layout.headEnd)
      addedSummary = layout.summaryRange.isEmpty ? summarySize : 0
      self.threshold = threshold
      self.target = target
      self.pinned = pinned
      self.ledger = ledger
      pinChosen = pinned <= 0
    }

    /// The history at length `position`: compacts when it is over `limit`
    /// (the threshold, or the target at a prefix break) and a turn before
    /// the current one can go; shrinks what the last cut keeps when the
    /// current turn alone grew past the threshold.
    mutating func observe(position: Int, limit: Int) {
      while turnIndex + 1 < points.count, points[turnIndex + 1] < position { turnIndex += 1 }
      let current = size(pin: pinIndex, from: cutIndex, to: position) + reattached
      if current > limit, max(cutIndex, pinIndex) < turnIndex {
        compact(at: position)
      } else if current > threshold, cutIndex > 0, cutIndex >= turnIndex, pinIndex > 0 || reattached > 0 {
        shrink(at: position)
      }
    }

    /// The visible size with the turns from `pin` to `start` left out.
    func size(pin: Int, from start: Int, to position: Int) -> Int {
      headSize + (start > 0 ? addedSummary : 0) + measure.size(headEnd..<points[pin])
        + measure.size(points[start]..<position)
    }

    // What a cut puts back is part of what a compaction keeps: its share is one
    // of the target, not of the threshold (a quarter of the threshold is two
    // thirds of a default target: the copies would crowd the turns out, and
    // the next compaction would come that much sooner).
    func reattach(pin: Int, from start: Int, to position: Int) -> Reattachment {
      ledger.reattachment(
        droppingFrom: points[pin], before: points[start], visibleUntil: position,
        room: threshold - size(pin: pin, from: start, to: position), budget: target)
    }

    /// The first turn from `first` on whose start, with what it puts back,
    /// brings the history down to the target (at the latest, the current turn).
    func fittingStart(pin: Int, from first: Int, to position: Int) -> (Int, Reattachment) {
      var next = first
      var reattachment = reattach(pin: pin, from: next, to: position)
      // The context put back counts toward the target: otherwise it eats the
      // room the compaction made, and the next compaction comes that much sooner.
      while next < turnIndex, size(pin: pin, from: next, to: position) + reattachment.size > target {
        next += 1
        reattachment = reattach(pin: pin, from: next, to: position)
      }
      return (next, reattachment)
    }

    /// A compaction: the turns after the pinned ones up to the fitting start go.
    mutating func compact(at position: Int) {
      if !pinChosen {
        pinChosen = true
        while pinIndex + 1 < turnIndex, measure.size(headEnd..<points[pinIndex + 1]) <= pinned {
          pinIndex += 1
        }
      }
      var (next, reattachment) = fittingStart(pin: pinIndex, from: max(cutIndex, pinIndex) + 1, to: position)
      if size(pin: pinIndex, from: next, to: position) > threshold, pinIndex > 0 {
        // The pinned turns and the current turn no longer fit together: give the pinned turns up.
        pinIndex = 0
        (next, reattachment) = fittingStart(pin: 0, from: max(cutIndex, 1), to: position)
      }
      // The pinned turns and the context put back share the pinned allowance:
      // both sit right after the instructions and stay there, and together
      // they must leave the room a compaction is for. Fewer pinned turns
      // keep a prefix of the same turns, so the server's cache still holds them.
      while pinIndex > 0, measure.size(headEnd..<points[pinIndex]) + reattachment.size > pinned {
        pinIndex -= 1
        reattachment = reattach(pin: pinIndex, from: next, to: position)
      }
      cutIndex = next
      reattached = reattachment.size
      cuts.append(
        Cut(dropFrom: points[pinIndex], start: points[next], madeAt: position, reattachment: reattachment))
    }

    /// The current turn grew past the threshold after the last cut, and no
    /// turn is left to cut: give up the pinned turns if they no longer fit
    /// with it, and put back less.
    mutating func shrink(at position: Int) {
      if pinIndex > 0, size(pin: pinIndex, from: cutIndex, to: position) > threshold { pinIndex = 0 }
      let reattachment = reattach(pin: pinIndex, from: cutIndex, to: position)
      reattached = reattachment.size
      cuts.append(
        Cut(dropFrom: points[pinIndex], start: points[cutIndex], madeAt: position, reattachment: reattachment)
      )
    }
  }
}
