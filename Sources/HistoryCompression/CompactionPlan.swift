/// Where a summarizing modifier cuts a history, decided so that the cut only
/// ever moves forward, in large steps, as the history grows.
///
/// The plan replays the history entry by entry, as if the modifier had run
/// after each one: whenever the visible size passes the threshold, the cut
/// jumps to the first turn start that brings the size down to the target (or
/// to the start of the current turn, when nothing earlier does). Because the
/// replay depends only on the entries, the same history always gives the same
/// cuts, and a longer history gives the same cuts plus, perhaps, later ones:
/// the visible prefix stays the same between two compactions.
struct CompactionPlan {
  /// One compaction of the replay.
  struct Cut: Equatable {
    /// The first conversation entry kept verbatim.
    var start: Int
    /// The length of the history when the replay made this cut.
    var madeAt: Int
  }

  /// The compactions, oldest first.
  let cuts: [Cut]
  /// The first entry kept verbatim at the end of the replay (the head's end when nothing is cut).
  let start: Int

  /// Replays `layout`'s history up to `end`.
  ///
  /// - Parameters:
  ///   - threshold: the size past which the replay compacts.
  ///   - target: the size a compaction brings the history down to.
  ///   - summarySize: the size the summary entry adds when the head holds none yet.
  init(
    layout: HistoryLayout, measure: HistoryMeasure, threshold: Int, target: Int, summarySize: Int, end: Int
  ) {
    let headEnd = layout.headEnd
    let points = layout.cutPoints
    let headSize = measure.size(0..<headEnd)
    let addedSummary = layout.summaryRange.isEmpty ? summarySize : 0
    var cuts: [Cut] = []
    var cutIndex = 0
    var turnIndex = 0
    var position = headEnd + 1
    while position <= end {
      while turnIndex + 1 < points.count, points[turnIndex + 1] < position { turnIndex += 1 }
      let start = points[cutIndex]
      let size = headSize + (start > headEnd ? addedSummary : 0) + measure.size(start..<position)
      if size > threshold, cutIndex < turnIndex {
        var next = cutIndex + 1
        while next < turnIndex, headSize + addedSummary + measure.size(points[next]..<position) > target {
          next += 1
        }
        cutIndex = next
        cuts.append(Cut(start: points[next], madeAt: position))
      }
      position += 1
    }
    self.cuts = cuts
    start = cuts.last?.start ?? headEnd
  }
}
