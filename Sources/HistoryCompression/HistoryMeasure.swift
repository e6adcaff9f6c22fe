import ModelSession

/// The sizes of a history's entries in the unit of a ``HistorySize``, with
/// prefix sums so that the size of any range costs one subtraction.
struct HistoryMeasure {
  /// `prefix[i]` is the size of the entries before index `i`; `prefix.count == entries.count + 1`.
  let prefix: [Int]

  init(_ entries: [Transcript.Entry], unit: HistorySize, counter: any TokenCounter) async throws {
    var prefix: [Int] = []
    prefix.reserveCapacity(entries.count + 1)
    prefix.append(0)
    switch unit {
    case .entries:
      for index in entries.indices { prefix.append(index + 1) }
    case .tokens:
      var total = 0
      for count in try await counter.tokenCounts(of: entries) {
        total += count
        prefix.append(total)
      }
    }
    self.prefix = prefix
  }

  /// The size of the entries in `range`.
  func size(_ range: Range<Int>) -> Int {
    prefix[range.upperBound] - prefix[range.lowerBound]
  }
}
