import HistoryCompression
import ModelSession

/// The invariants every history modifier keeps, checked on one stage (the
/// history before and after one modifier). Each check returns what is wrong,
/// or nothing.
enum HistoryInvariants {
  /// The index after the instructions entry and the summary entries right after it.
  static func headEnd(_ entries: [Transcript.Entry]) -> Int {
    var head = 0
    if case .instructions = entries.first { head = 1 }
    while head < entries.count, entries[head].isHistorySummary { head += 1 }
    return head
  }

  /// The start of the current turn: the last prompt after the head, or the head's end.
  static func currentTurnStart(_ entries: [Transcript.Entry]) -> Int {
    let head = headEnd(entries)
    return entries.indices[head...].last { if case .prompt = entries[$0] { true } else { false } } ?? head
  }

  /// The problems common to every modifier.
  static func common(input: [Transcript.Entry], output: [Transcript.Entry]) -> [String] {
    var problems: [String] = []
    if case .instructions = input.first, output.first != input.first {
      problems.append("the instructions entry is gone or moved")
    }
    // Entry order preserved: the output, without new summaries, is a subsequence of the input.
    var position = input.startIndex
    for entry in output where !(entry.isHistorySummary && !input.contains { $0.id == entry.id }) {
      while position < input.count, input[position].id != entry.id { position += 1 }
      if position == input.count {
        problems.append("entry \(entry.id) is out of order or not from the input")
        break
      }
      position += 1
    }
    // The current turn, from its prompt on, is kept whole.
    let turn = input[currentTurnStart(input)...].map(\.id)
    if Array(output.suffix(turn.count).map(\.id)) != turn {
      problems.append("the current turn (from \(turn.first ?? "-")) is not kept whole at the end")
    }
    problems += orphans(output)
    return problems
  }

  /// Outputs without their call, and calls without their output.
  static func orphans(_ entries: [Transcript.Entry]) -> [String] {
    var calls: Set<String> = []
    var answered: Set<String> = []
    var problems: [String] = []
    for entry in entries {
      switch entry {
      case .toolCalls(let toolCalls): for call in toolCalls.calls { calls.insert(call.id) }
      case .toolOutput(let output):
        if !calls.contains(output.id) { problems.append("tool output \(output.id) has no call before it") }
        answered.insert(output.id)
      default: break
      }
    }
    for call in calls.subtracting(answered).sorted() { problems.append("tool call \(call) has no output") }
    return problems
  }

  /// The size of `entries` in the unit of `size`.
  static func size(
    _ entries: some Collection<Transcript.Entry>, in unit: HistorySize, counter: EstimatingTokenCounter
  )
    -> Int
  {
    switch unit {
    case .entries: entries.count
    case .tokens: counter.tokenCounts(of: Array(entries)).reduce(0, +)
    }
  }
}
