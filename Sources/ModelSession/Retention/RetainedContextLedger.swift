/// The retained context (see ``RetainedContext``) in a history, ready to be
/// put back after a cut: the routine every history modifier calls where it
/// cuts, so that they all re-attach the same way.
///
/// Build it once per generation from the history the modifier received, then
/// ask ``reattachment(droppingFrom:before:visibleUntil:room:budget:)`` what to put
/// back for a cut. The answer depends only on the entries before
/// `visibleUntil`, so a modifier that replays the history (and so finds the
/// same cut again at later generations) gets the same entries, byte for
/// byte, and the prefix the model sees stays stable between compactions. A
/// key delivered again later is then in the context twice: the modifier
/// removes that copy with ``Reattachment/removing(keys:)`` and
/// ``keys(deliveredFrom:)``.
///
/// ```swift
/// let ledger = try await RetainedContextLedger(entries, unit: .tokens, counter: counter,
///                                              retention: context.contextRetention)
/// let back = ledger.reattachment(before: cut, visibleUntil: entries.count, room: room, budget: budget)
/// let visible = head + back.entries + entries[cut...]
/// ```
public struct RetainedContextLedger: Sendable {
  /// The unit sizes are measured in: the modifier's.
  public enum Unit: Sendable, Hashable {
    /// Each re-attached item counts as two entries (its call and its output).
    case entries
    /// Each re-attached item counts as the tokens of its call and output.
    case tokens
  }

  struct Item: Sendable {
    /// The index of the output in the history.
    var position: Int
    var key: String
    /// The copy to put back: the call, then its output.
    var entries: [Transcript.Entry]
    var tokens: Int
    var size: Int
  }

  /// The retained outputs, in history order.
  let items: [Item]
  /// The caps.
  public let retention: ContextRetention

  /// A ledger with nothing in it.
  public static let empty = RetainedContextLedger(items: [], retention: .none)

  init(items: [Item], retention: ContextRetention) {
    self.items = items
    self.retention = retention
  }

  /// Finds the retained outputs of `entries` and measures their copies.
  public init(
    _ entries: [Transcript.Entry], unit: Unit, counter: any TokenCounter, retention: ContextRetention
  ) async throws {
    self.retention = retention
    var found: [(position: Int, output: Transcript.ToolOutput, key: String)] = []
    for (position, entry) in entries.enumerated() {
      guard case .toolOutput(let output) = entry, let key = output.retainedContextKey else { continue }
      found.append((position, output, key))
    }
    guard !found.isEmpty else {
      items = []
      return
    }
    let wanted = Set(found.map(\.output.id))
    var calls: [String: Transcript.ToolCall] = [:]
    for entry in entries {
      guard case .toolCalls(let entryCalls) = entry else { continue }
      for call in entryCalls.calls where wanted.contains(call.id) { calls[call.id] = call }
    }
    var copies: [[Transcript.Entry]] = []
    for item in found {
      copies.append(Self.copy(of: item.output, call: calls[item.output.id]))
    }
    let counts = try await counter.tokenCounts(of: copies.flatMap { $0 })
    var built: [Item] = []
    for (index, item) in found.enumerated() {
      let tokens = counts[2 * index] + counts[2 * index + 1]
      built.append(
        Item(
          position: item.position, key: item.key, entries: copies[index], tokens: tokens,
          size: unit == .entries ? 2 : tokens))
    }
    items = built
  }

  /// Whether the history holds no retained context.
  public var isEmpty: Bool { items.isEmpty }

  /// What to put back after a cut that drops the entries in `from..<start`,
  /// when the history the modifier sees ends at `visibleUntil`.
  ///
  /// The candidates are the latest output of each key in `from..<start`
  /// whose key does not appear before `from` or in `start..<visibleUntil`
  /// (there the model still sees it; what comes after `visibleUntil` is not
  /// looked at, so the answer for a cut never changes as the history grows).
  /// They are taken most recently delivered first while they
  /// fit in `min(room, budgetShare × budget)`; one over `itemTokenLimit`, or
  /// one that does not fit, is left out and the next is tried.
  ///
  /// - Parameters:
  ///   - from: the first entry the cut drops.
  ///   - start: the first entry the modifier keeps after the cut.
  ///   - end: where the history the modifier sees ends.
  ///   - room: the most the copies may add, in the ledger's unit (the budget
  ///     less what the modifier keeps); `Int.max` to ask what the caps alone allow.
  ///   - budget: what the modifier keeps (a window's size, a compaction's
  ///     target), of which `budgetShare` is the cap.
  public func reattachment(
    droppingFrom from: Int = 0, before start: Int, visibleUntil end: Int, room: Int, budget: Int
  ) -> Reattachment {
    guard !items.isEmpty else { return .none }
    var visible: Set<String> = []
    var latest: [String: Int] = [:]
    for (index, item) in items.enumerated() where item.position < end {
      if item.position >= start || item.position < from {
        visible.insert(item.key)
      } else {
        latest[item.key] = index
      }
    }
    let candidates = latest.filter { !visible.contains($0.key) }.map(\.value).sorted(by: >)
    guard !candidates.isEmpty else { return .none }
    let share = retention.shareOf(budget)
    let room = max(room, 0)
    var used = 0
    var taken: [Int] = []
    var leftOut: [Reattachment.LeftOut] = []
    for index in candidates {
      let item = items[index]
      if item.tokens > retention.itemTokenLimit {
        leftOut.append(
          Reattachment.LeftOut(
            key: item.key, tokens: item.tokens, reason: .overItemLimit(limit: retention.itemTokenLimit)))
      } else if used + item.size > share {
        leftOut.append(
          Reattachment.LeftOut(key: item.key, tokens: item.tokens, reason: .overShare(share: share)))
      } else if used + item.size > room {
        leftOut.append(
          Reattachment.LeftOut(key: item.key, tokens: item.tokens, reason: .noRoom(room: room - used)))
      } else {
        used += item.size
        taken.append(index)
      }
    }
    taken.sort()
    var reattachment = Reattachment(
      entries: taken.flatMap { items[$0].entries }, keys: taken.map { items[$0].key }, size: used,
      leftOut: leftOut)
    reattachment.itemSizes = taken.map { items[$0].size }
    return reattachment
  }

  /// The keys of the retained context delivered at or after `position`.
  public func keys(deliveredFrom position: Int) -> Set<String> {
    Set(items.lazy.filter { $0.position >= position }.map(\.key))
  }

  /// The prefix of the ids of re-attached copies.
  public static let copyIDPrefix = "contextkit.retained."

  /// The call and output to put back for `output`. Their ids derive from the
  /// original call's id (a copy of a copy keeps its ids), so the same output
  /// always gives the same entries.
  static func copy(of output: Transcript.ToolOutput, call: Transcript.ToolCall?) -> [Transcript.Entry] {
    let id = output.id.hasPrefix(copyIDPrefix) ? output.id : copyIDPrefix + output.id
    let copiedCall = Transcript.ToolCall(
      id: id, toolName: call?.toolName ?? output.toolName,
      arguments: call?.arguments ?? GeneratedContent(kind: .structure(properties: [:], orderedKeys: [])),
      metadata: call?.metadata ?? [:])
    var metadata = output.metadata
    metadata[RetainedContext.reattachedMetadataKey] = GeneratedContent(kind: .bool(true))
    return [
      .toolCalls(Transcript.ToolCalls(id: id + ".calls", [copiedCall])),
      .toolOutput(
        Transcript.ToolOutput(
          id: id, toolName: output.toolName, segments: output.segments, metadata: metadata)),
    ]
  }
}
