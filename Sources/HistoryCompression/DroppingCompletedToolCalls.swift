import ModelSession

/// Removes the tool calls of earlier turns, with their outputs, once the
/// model has answered after them.
///
/// A tool-calls entry is dropped together with all of its outputs when every
/// one of its calls has an output, all of them come before the current turn
/// (which starts at the latest prompt), and a response of the model follows
/// them. The calls of the current tool loop are kept, as are calls whose
/// outputs are missing: the result never holds an output without its call nor
/// a call without its output (unless the history already did).
///
/// A call whose output is retained context (a prompt skill's body, see
/// `RetainedContext`) is dropped like any other once answered, as the
/// companion package does: the model sees the body during the turn that
/// loaded it, and the skills catalog delivers it again when the model calls
/// the activation tool later. A `contextLeftOut` note names each body that
/// leaves the history this way. A copy that another modifier put back after
/// its cut (`isReattachedContext` on its output) is not a completed
/// call of the conversation and stays.
///
/// Cache cost: when a new turn starts, the previous turn's tool calls leave
/// the visible history, so the prompt cache is reused up to the previous
/// turn and re-processes that turn once. Earlier turns stay as they were.
public struct DroppingCompletedToolCalls: DynamicProfileModifier {
  /// The stage's name in generation records: `droppingCompletedToolCalls`.
  public var name: String { "droppingCompletedToolCalls" }

  /// Creates the modifier.
  public init() {}

  /// Removes the completed tool calls of earlier turns.
  public func transformHistory(
    _ history: Transcript, in context: ProfileModifierContext
  ) async throws -> Transcript {
    let entries = history.entries
    let layout = HistoryLayout(entries)
    let turnStart = layout.currentTurnStart(endingAt: entries.count)
    let dropped = Self.droppedIndices(entries, before: turnStart, from: layout.headEnd)
    guard !dropped.isEmpty else { return history }
    var kept: [Transcript.Entry] = []
    kept.reserveCapacity(entries.count - dropped.count)
    var next = dropped.makeIterator()
    var skip = next.next()
    for (index, entry) in entries.enumerated() {
      if index == skip {
        skip = next.next()
        continue
      }
      kept.append(entry)
    }
    if let previousEnd = HistoryLayout.previousGenerationEnd(entries, headEnd: layout.headEnd) {
      let previousTurnStart = layout.currentTurnStart(endingAt: previousEnd)
      let newlyDropped = dropped.filter { $0 >= previousTurnStart }
      if let first = newlyDropped.first {
        context.record(
          HistoryNote.completedToolCallsDropped(source: name, firstDroppedEntry: entries[first].id))
      }
      let stillVisible = Set(kept.compactMap(\.retainedContextKey))
      var noted: Set<String> = []
      for index in newlyDropped {
        guard let key = entries[index].retainedContextKey, !stillVisible.contains(key),
          noted.insert(key).inserted
        else { continue }
        context.record(HistoryNote.leftWithToolCall(source: name, key: key))
      }
    }
    return Transcript(entries: kept)
  }

  /// The ascending indices of the tool-calls entries before `turnStart` that
  /// are complete and answered, and of their outputs.
  static func droppedIndices(_ entries: [Transcript.Entry], before turnStart: Int, from start: Int) -> [Int] {
    var outputIndex: [String: Int] = [:]
    var lastResponse = -1
    for index in start..<turnStart {
      switch entries[index] {
      // A copy another modifier put back after its cut is not a completed call: it stays.
      case .toolOutput(let output) where !output.isReattachedContext: outputIndex[output.id] = index
      case .response: lastResponse = index
      default: break
      }
    }
    guard !outputIndex.isEmpty else { return [] }
    var dropped: [Int] = []
    for index in start..<turnStart {
      guard case .toolCalls(let calls) = entries[index], !calls.calls.isEmpty else { continue }
      var outputs: [Int] = []
      for call in calls.calls {
        guard let output = outputIndex[call.id], output > index else { break }
        outputs.append(output)
      }
      guard outputs.count == calls.calls.count, let lastOutput = outputs.max(), lastOutput < lastResponse
      else { continue }
      dropped.append(index)
      dropped.append(contentsOf: outputs)
    }
    return Set(dropped).sorted()
  }
}

extension DynamicProfile {
  /// Removes the tool calls, and their outputs, of turns the model has
  /// already answered (see ``DroppingCompletedToolCalls``).
  ///
  /// ```swift
  /// Profile { Instructions("You plan trips."); WeatherTool() }
  ///   .droppingCompletedToolCalls()
  /// ```
  public func droppingCompletedToolCalls() -> ModifiedProfile<Self, DroppingCompletedToolCalls> {
    modifier(DroppingCompletedToolCalls())
  }
}
