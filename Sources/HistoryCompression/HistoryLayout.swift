import ModelSession

/// The shape of a history that the modifiers cut: where the pinned head
/// (the instructions entry and the summary entries right after it) ends, and
/// the positions where the history may be cut.
///
/// A cut point is the start of the conversation after the head, or a prompt
/// that no tool call straddles (a call before it whose output comes at or
/// after it). Cutting only there keeps turns whole and every tool call with
/// its output.
struct HistoryLayout {
  /// The number of entries.
  let count: Int
  /// Whether the first entry is the instructions entry.
  let hasInstructions: Bool
  /// The index after the head.
  let headEnd: Int
  /// The valid cut points, ascending; the first is `headEnd`.
  let cutPoints: [Int]

  init(_ entries: [Transcript.Entry]) {
    count = entries.count
    var head = 0
    if case .instructions = entries.first {
      hasInstructions = true
      head = 1
    } else {
      hasInstructions = false
    }
    while head < entries.count, entries[head].isHistorySummary { head += 1 }
    headEnd = head
    cutPoints = Self.cutPoints(entries, headEnd: head)
  }

  /// The index of the first summary entry in the head, when there is one.
  var summaryRange: Range<Int> { (hasInstructions ? 1 : 0)..<headEnd }

  /// The start of the turn that contains the entry before `end`: the last cut point before `end`.
  func currentTurnStart(endingAt end: Int) -> Int {
    cutPoints[lastCutPointIndex(before: end)]
  }

  /// The index in `cutPoints` of the last cut point before `end` (0 when none).
  func lastCutPointIndex(before end: Int) -> Int {
    var low = 0
    var high = cutPoints.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if cutPoints[middle] < end { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The length of the history the previous generation saw, assuming the
  /// entries after it are what a session appends between two generations
  /// (the model's output, then a prompt or tool outputs); `nil` when there
  /// was no earlier generation in this history.
  static func previousGenerationEnd(_ entries: [Transcript.Entry], headEnd: Int) -> Int? {
    var index = entries.count
    while index > headEnd, entries[index - 1].isGenerationInput { index -= 1 }
    let inputsStart = index
    while index > headEnd, entries[index - 1].isModelOutput { index -= 1 }
    guard index < inputsStart, inputsStart < entries.count, index > headEnd else { return nil }
    return index
  }

  private static func cutPoints(_ entries: [Transcript.Entry], headEnd: Int) -> [Int] {
    var callPositions: [String: Int] = [:]
    var straddled: [Int] = []
    for index in entries.indices[headEnd...] {
      switch entries[index] {
      case .toolCalls(let calls):
        for call in calls.calls { callPositions[call.id] = index }
      case .toolOutput(let output):
        if let callIndex = callPositions[output.id], callIndex + 1 < index {
          if straddled.isEmpty { straddled = Array(repeating: 0, count: entries.count + 1) }
          straddled[callIndex + 1] += 1
          straddled[index + 1] -= 1
        }
      default: break
      }
    }
    var points = [headEnd]
    var covering = 0
    for index in entries.indices[headEnd...] {
      if !straddled.isEmpty { covering += straddled[index] }
      guard index > headEnd, case .prompt = entries[index], covering == 0 else { continue }
      points.append(index)
    }
    return points
  }
}

extension Transcript.Entry {
  /// A prompt or a tool output: what a session appends before a generation.
  var isGenerationInput: Bool {
    switch self {
    case .prompt, .toolOutput: true
    default: false
    }
  }

  /// A response, reasoning or tool calls: what a generation produces.
  var isModelOutput: Bool {
    switch self {
    case .response, .reasoning, .toolCalls: true
    default: false
    }
  }
}
