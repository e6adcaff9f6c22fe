import ModelSession

extension CompactionPlan.Cut {
  /// The memo key of what each cut leaves out: the content of the history
  /// from the head to the cut, where the left-out part begins, `seed` (the
  /// summarizer's settings) and any summary already in the head. The same
  /// history and settings always give the same keys, so a summary computed
  /// once is found again.
  static func rangeKeys(
    of cuts: [CompactionPlan.Cut], in entries: [Transcript.Entry], layout: HistoryLayout, seed: [String]
  ) -> [Int] {
    var digest = EntryDigest()
    for text in seed { digest.add(text) }
    for index in layout.summaryRange { digest.add(entries[index]) }
    var keys: [Int] = []
    keys.reserveCapacity(cuts.count)
    var position = layout.headEnd
    for cut in cuts {
      while position < cut.start {
        digest.add(entries[position])
        position += 1
      }
      var key = digest
      key.add("left out from \(cut.dropFrom - layout.headEnd)")
      keys.append(key.value)
    }
    return keys
  }
}
