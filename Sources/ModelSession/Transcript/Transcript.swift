/// The record of a conversation with a language model: instructions, prompts,
/// tool calls and their outputs, reasoning and responses, in order.
///
/// `Transcript` is a random-access, range-replaceable collection of entries, so
/// history modifiers can slice and rebuild it with ordinary collection code.
/// It is `Codable` with a stable JSON form (see docs/transcript-format.md).
///
/// ```swift
/// let transcript = Transcript(entries: [
///   .instructions(Transcript.Instructions(
///     segments: [.text(Transcript.TextSegment(content: "Be concise."))], toolDefinitions: [])),
///   .prompt(Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: "Hello"))])),
/// ])
/// ```
public struct Transcript: Sendable, Equatable {
  /// The entries, oldest first.
  public var entries: [Entry]

  /// Creates a transcript from entries, oldest first.
  public init(entries: some Sequence<Entry> = []) {
    self.entries = Array(entries)
  }
}

extension Transcript: RandomAccessCollection, RangeReplaceableCollection {
  /// The position of the first entry.
  public var startIndex: Int { entries.startIndex }
  /// The position after the last entry.
  public var endIndex: Int { entries.endIndex }

  /// The entry at `position`.
  public subscript(position: Int) -> Entry {
    get { entries[position] }
    set { entries[position] = newValue }
  }

  /// Creates an empty transcript.
  public init() {
    entries = []
  }

  /// Replaces the entries in `subrange` with `newElements`.
  public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
  where C.Element == Entry {
    entries.replaceSubrange(subrange, with: newElements)
  }
}
