import ModelSession

/// Where a window over the history starts when the retained context it
/// drops is put back right after the cut (see ``RetainedContextLedger``),
/// with the copies counted against the same budget.
///
/// The window is first placed without the copies; when it drops retained
/// context, it is placed again with room set aside for what the caps allow,
/// and the copies are then chosen to fit the room that is really left. Two
/// placements at most, and the result never passes the budget unless the
/// head and the current turn alone do.
struct RetainedWindow: Equatable {
  /// The first conversation entry kept.
  var start: Int
  /// Whether the head and the entries from `start` fit the budget.
  var fits: Bool
  /// What goes back right after the head.
  var reattachment: Reattachment

  init(
    layout: HistoryLayout, measure: HistoryMeasure, ledger: RetainedContextLedger, budget: Int, end: Int
  ) {
    let headSize = measure.size(0..<layout.headEnd)
    let first = RollingWindow.cut(layout: layout, measure: measure, budget: budget, end: end)
    var start = first.start
    var reattachment = Reattachment.none
    if start > layout.headEnd, !ledger.isEmpty {
      let wanted = ledger.reattachment(before: start, visibleUntil: end, room: .max, budget: budget)
      if wanted.size > 0 {
        start =
          RollingWindow.cut(layout: layout, measure: measure, budget: budget - wanted.size, end: end).start
      }
      let room = budget - headSize - measure.size(start..<end)
      reattachment = ledger.reattachment(before: start, visibleUntil: end, room: room, budget: budget)
    }
    self.start = start
    self.fits = headSize + measure.size(start..<end) <= budget
    self.reattachment = reattachment
  }

  /// The head, the re-attached copies, then the entries from `start`.
  func apply(to entries: [Transcript.Entry], head: Int) -> Transcript {
    RollingWindow.keeping(entries, head: head, from: start, reattaching: reattachment.entries)
  }
}

extension HistorySize {
  /// The unit re-attached context is measured in.
  var retainedUnit: RetainedContextLedger.Unit {
    switch self {
    case .entries: .entries
    case .tokens: .tokens
    }
  }
}
