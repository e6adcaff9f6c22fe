/// The summary would put the history over the threshold: the compaction
/// engine keeps its policy's fallback instead.
struct SummaryTooLarge: Error, CustomStringConvertible {
  /// The summary entry's size, in the threshold's unit.
  var size: Int
  /// The threshold it would have put the history over.
  var threshold: HistorySize

  var description: String {
    "the summary takes \(size) \(threshold.unitName), which would put the history over the threshold of "
      + "\(threshold.value) \(threshold.unitName)"
  }
}
