/// What a history modifier puts back right after a cut: copies of the
/// retained context the cut dropped (see ``RetainedContext``), and what it
/// left out and why.
public struct Reattachment: Sendable, Equatable {
  /// One item that was not put back.
  public struct LeftOut: Sendable, Hashable, CustomStringConvertible {
    /// Why an item was left out.
    public enum Reason: Sendable, Hashable {
      /// The item alone takes more tokens than ``ContextRetention/itemTokenLimit``.
      case overItemLimit(limit: Int)
      /// It would take the re-attached context past ``ContextRetention/budgetShare`` of what the modifier keeps.
      case overShare(share: Int)
      /// The history after the cut leaves no room for it under the budget.
      case noRoom(room: Int)
    }

    /// The item's key.
    public var key: String
    /// The tokens the item takes.
    public var tokens: Int
    /// Why it was left out.
    public var reason: Reason

    /// `"key" (N tokens) was not put back after the cut: why`.
    public var description: String { Self.message(for: note(source: "")) }

    /// The `contextLeftOut` note for this item: its key, its tokens, the
    /// reason's name and its number (the limit, the share, the room).
    public func note(source: String) -> GenerationNote {
      let (name, bound) =
        switch reason {
        case .overItemLimit(let limit): ("overItemLimit", limit)
        case .overShare(let share): ("overShare", share)
        case .noRoom(let room): ("noRoom", room)
        }
      var note = GenerationNote(
        source: source, kind: .contextLeftOut, message: "", names: [.keys: [key], .reason: [name]],
        counts: [.tokens: tokens, .budget: bound])
      note.message = Self.message(for: note)
      return note
    }

    /// The message of a `contextLeftOut` note, from its fields.
    static func message(for note: GenerationNote) -> String {
      let bound = note.counts[.budget] ?? 0
      let why =
        switch note.names(.reason).first {
        case "overItemLimit": "it is larger than the limit of \(bound) tokens for one item"
        case "overShare": "the re-attached context would pass its share of what the cut keeps (\(bound))"
        default: "the history after the cut leaves room for only \(bound) more"
        }
      return
        "\"\(note.names(.keys).joined())\" (\(note.counts[.tokens] ?? 0) tokens) was not put back after the cut: "
        + why
    }
  }

  /// The entries to insert right after the cut: for each item, a tool-calls
  /// entry with its one call and the call's output, oldest first.
  public var entries: [Transcript.Entry]
  /// The keys put back, oldest first.
  public var keys: [String]
  /// The size of `entries` in the modifier's unit.
  public var size: Int
  /// The items left out, most recently used first.
  public var leftOut: [LeftOut]

  /// The size of each item put back, in the order of `keys` (empty when the
  /// reattachment was built without them).
  package var itemSizes: [Int] = []

  /// Nothing to put back.
  public static let none = Reattachment(entries: [], keys: [], size: 0, leftOut: [])

  /// Creates a reattachment.
  public init(entries: [Transcript.Entry], keys: [String], size: Int, leftOut: [LeftOut]) {
    self.entries = entries
    self.keys = keys
    self.size = size
    self.leftOut = leftOut
  }

  /// The reattachment without the items of `removed`: for keys the history
  /// delivers again after the cut, so that no body is in the context twice.
  /// Its size is the sum of the items kept (the whole size, an upper bound,
  /// when the reattachment was created without the items' sizes).
  public func removing(keys removed: Set<String>) -> Reattachment {
    guard keys.contains(where: removed.contains) else { return self }
    let sizesKnown = itemSizes.count == keys.count
    var result = Reattachment(entries: [], keys: [], size: 0, leftOut: leftOut)
    // Each item is two entries (its call and its output), in the order of `keys`.
    for (index, key) in keys.enumerated() where !removed.contains(key) {
      result.entries.append(
        contentsOf: entries[min(2 * index, entries.count)..<min(2 * index + 2, entries.count)])
      result.keys.append(key)
      if sizesKnown {
        result.itemSizes.append(itemSizes[index])
        result.size += itemSizes[index]
      }
    }
    // Without the items' sizes, the whole size stays: an upper bound.
    if !sizesKnown { result.size = size }
    return result
  }

  /// Records what was put back (an `information` note) and each item left
  /// out (a `contextLeftOut` note naming its key and the reason).
  public func record(in context: ProfileModifierContext, source: String) {
    if !keys.isEmpty {
      var note = GenerationNote(
        source: source, kind: .information, message: "", names: [.putBack: keys], counts: [.kept: size])
      note.message = Self.putBackMessage(for: note)
      context.record(note)
    }
    for item in leftOut {
      context.record(item.note(source: source))
    }
  }

  /// The message of the `information` note for what was put back, from its fields.
  static func putBackMessage(for note: GenerationNote) -> String {
    "put back after the cut: " + note.names(.putBack).map { "\"\($0)\"" }.joined(separator: ", ")
      + " (\(note.counts[.kept] ?? 0) of the budget)"
  }
}
