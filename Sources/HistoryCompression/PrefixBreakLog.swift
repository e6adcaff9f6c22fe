import ModelSession

/// Where ``CompactingHistory`` remembers, per conversation, when the part of
/// the prompt before the history last changed: the tools offered or the
/// instructions text (an instructions skill switching on or off, a tool
/// joining the list). ``SummarizeHistory`` and ``RollingWindow`` use it too,
/// to say again what they put back after the cut when that prefix changes.
///
/// Such a change makes a server re-process the whole history after it, so
/// it is the cheapest moment to compact: the modifier compacts in that same
/// generation (when the history is over its target) instead of paying for a
/// re-processing of its own later. The history alone does not say where
/// those changes happened, so the modifier records them here, by the
/// history's length at the time, and replays them with the history.
///
/// A conversation is known by the id of its first entry after the
/// instructions. The log keeps the newest `capacity` conversations. Profiles
/// are often rebuilt for every generation, so by default every modifier uses
/// ``shared``.
///
/// ```swift
/// let log = PrefixBreakLog(capacity: 16)
/// profile.compactingHistory(tokenBudget: 8_000, options: .init(prefixBreaks: log))
/// ```
public actor PrefixBreakLog {
  /// The log modifiers use unless given another.
  public static let shared = PrefixBreakLog()

  /// The most conversations remembered.
  public let capacity: Int
  private var conversations: [String: (prefix: Int, breaks: Set<Int>)] = [:]
  private var order: [String] = []

  /// Creates an empty log; a capacity below 1 is taken as 1.
  public init(capacity: Int = 256) {
    self.capacity = max(1, capacity)
  }

  /// The number of conversations remembered.
  public var count: Int { conversations.count }

  /// Forgets every conversation.
  public func removeAll() {
    conversations.removeAll()
    order.removeAll()
  }

  /// Records that the conversation `conversation`, at `length` entries, is
  /// sent with the prefix digested as `prefix`, and returns the history
  /// lengths at which its prefix changed (this one included, when it did).
  /// The first generation seen is not a change: nothing was sent before it.
  func observe(conversation: String, prefix: Int, length: Int) -> Set<Int> {
    guard var known = conversations[conversation] else {
      remember(conversation, (prefix, []))
      return []
    }
    // Positions past the history belong to generations that were rolled back.
    known.breaks = known.breaks.filter { $0 <= length }
    if known.prefix != prefix {
      known.prefix = prefix
      known.breaks.insert(length)
    }
    conversations[conversation] = known
    return known.breaks
  }

  private func remember(_ conversation: String, _ state: (prefix: Int, breaks: Set<Int>)) {
    conversations[conversation] = state
    order.append(conversation)
    if order.count > capacity {
      let overflow = order.count - capacity
      for old in order.prefix(overflow) { conversations[old] = nil }
      order.removeFirst(overflow)
    }
  }
}

extension PrefixBreakLog {
  /// The history lengths at which the tools or the instructions changed,
  /// this generation included: observes the prefix `context` sends with `entries`.
  func breaks(
    in entries: [Transcript.Entry], layout: HistoryLayout, context: ProfileModifierContext
  ) -> Set<Int> {
    let first = layout.hasInstructions ? 1 : 0
    guard first < entries.count else { return [] }
    var prefix = EntryDigest()
    prefix.add(context.toolDefinitions)
    if layout.hasInstructions { prefix.add(entries[0]) }
    return observe(conversation: entries[first].id, prefix: prefix.value, length: entries.count)
  }
}
