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

  /// The start of the current turn: the last prompt after the head that no
  /// tool call straddles (a prompt that came between a call and its output
  /// belongs to the call's turn), or the head's end.
  static func currentTurnStart(_ entries: [Transcript.Entry]) -> Int {
    let head = headEnd(entries)
    var callIndex: [String: Int] = [:]
    for (index, entry) in entries.enumerated() {
      if case .toolCalls(let calls) = entry { for call in calls.calls { callIndex[call.id] = index } }
    }
    func isStraddled(_ prompt: Int) -> Bool {
      entries[prompt...].contains { entry in
        guard case .toolOutput(let output) = entry, let call = callIndex[output.id] else { return false }
        return call < prompt
      }
    }
    return entries.indices[head...].last { index in
      guard case .prompt = entries[index] else { return false }
      return !isStraddled(index)
    } ?? head
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
    let turn = input[currentTurnStart(input)...].map { $0.id }
    if output.suffix(turn.count).map({ $0.id }) != turn {
      problems.append("the current turn (from \(turn.first ?? "-")) is not kept whole at the end")
    }
    // A call left without output in the input is not the modifier's doing.
    let inherited = Set(orphans(input))
    problems += orphans(output).filter { !inherited.contains($0) }
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

  /// What `droppingCompletedToolCalls` may not do: remove anything but whole tool-call pairs.
  static func dropping(input: [Transcript.Entry], output: [Transcript.Entry]) -> [String] {
    // The output is a subsequence of the input (checked by `common`): walk both.
    var removedEntries: [Transcript.Entry] = []
    var position = 0
    for entry in input {
      if position < output.count, output[position].id == entry.id {
        position += 1
      } else {
        removedEntries.append(entry)
      }
    }
    var problems: [String] = []
    if removedEntries.contains(where: { $0.kindName != "toolCalls" && $0.kindName != "toolOutput" }) {
      problems.append("removed an entry that is not a tool call or output")
    }
    if !orphans(removedEntries).isEmpty {
      problems.append("removed a tool call without its outputs, or outputs without their call")
    }
    return problems
  }

  /// What `rollingWindow` must do: keep the head, then the newest entries from
  /// a turn start, within the size whenever the current turn fits.
  static func window(
    _ size: HistorySize, input: [Transcript.Entry], output: [Transcript.Entry],
    counter: EstimatingTokenCounter
  ) -> [String] {
    var problems: [String] = []
    let head = headEnd(input)
    let kept = output.dropFirst(head)
    if Array(output.prefix(head)) != Array(input.prefix(head)) {
      problems.append("did not keep the instructions and summary entries first")
    } else if let first = kept.first, first.id != input[head].id, first.kindName != "prompt" {
      problems.append("cut before \(first.id), which does not start a turn")
    } else if !kept.elementsEqual(input.suffix(kept.count), by: { $0.id == $1.id }) {
      problems.append("kept something other than the newest entries after the head")
    }
    let minimum = self.size(input[..<head] + input[currentTurnStart(input)...], in: size, counter: counter)
    guard minimum <= size.value else { return problems }
    let actual = self.size(output, in: size, counter: counter)
    if actual > size.value {
      problems.append("kept \(actual), over its size, though the current turn fits (\(minimum))")
    }
    return problems
  }

  /// What `summarizeHistory` must do: one summary right after the
  /// instructions (folding in any earlier one), none when the summarizer
  /// failed, and the verbatim part within the threshold whenever the current turn fits.
  static func summary(
    _ size: HistorySize, summarizerFailed: Bool, input: [Transcript.Entry], output: [Transcript.Entry],
    counter: EstimatingTokenCounter
  ) -> [String] {
    var problems: [String] = []
    let head = headEnd(input)
    let hasInstructions = input.first?.kindName == "instructions"
    let inputSummaryIDs = Set(input[..<head].map { $0.id })
    let added = output.indices.filter {
      output[$0].isHistorySummary && !inputSummaryIDs.contains(output[$0].id)
    }
    if !added.isEmpty, added != [hasInstructions ? 1 : 0] {
      problems.append("placed its summary at \(added), not right after the instructions")
    }
    if !added.isEmpty, output.filter({ $0.isHistorySummary }).count != 1 {
      problems.append("left an old summary beside the new one instead of folding it in")
    }
    if summarizerFailed, !added.isEmpty {
      problems.append("added a summary though the summarizer failed")
    }
    // With an entry threshold the new summary counts as one entry; with tokens it is not counted.
    let hadSummary = head > (hasInstructions ? 1 : 0)
    let slot = size.unitName == "entries" && !hadSummary ? 1 : 0
    let minimum =
      self.size(input[..<head] + input[currentTurnStart(input)...], in: size, counter: counter) + slot
    guard minimum <= size.value else { return problems }
    var verbatim = output
    if size.unitName == "tokens" { for index in added.reversed() { verbatim.remove(at: index) } }
    let actual = self.size(verbatim, in: size, counter: counter)
    if actual > size.value {
      problems.append("kept \(actual), over its threshold, though the current turn fits (\(minimum))")
    }
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
