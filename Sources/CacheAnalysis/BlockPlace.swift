import ModelSession

/// Where one block of a ``RenderedPrompt`` sits, in 16 bytes without
/// references: an entry of one of the transcript's kinds with its index, or
/// the position of a location kept aside (tools, settings, the response
/// schema, the instructions, an entry of an unknown kind).
struct BlockPlace: Sendable, Hashable {
  /// The kinds of entry a place names directly; `kind` is the position here plus one.
  static let entryKinds = ["instructions", "prompt", "toolCalls", "toolOutput", "response", "reasoning"]

  /// 0: `value` is an index into the prompt's locations kept aside; `n` above 0: an entry of
  /// kind `entryKinds[n - 1]` at index `value`.
  var kind: UInt8
  var value: Int

  /// The place of the entry at `index`, whose kind is `entry`'s.
  init(entry: Transcript.Entry, index: Int) {
    let kind: UInt8 =
      switch entry {
      case .instructions: 1
      case .prompt: 2
      case .toolCalls: 3
      case .toolOutput: 4
      case .response: 5
      case .reasoning: 6
      }
    self.init(kind: kind, value: index)
  }

  init(kind: UInt8, value: Int) {
    self.kind = kind
    self.value = value
  }

  /// The place of an entry location whose kind is one of `entryKinds`, `nil` for any other location.
  init?(_ location: PromptBlock.Location) {
    guard case .entry(let index, let kindName) = location,
      let position = Self.entryKinds.firstIndex(of: kindName)
    else { return nil }
    self.init(kind: UInt8(position + 1), value: index)
  }

  /// The entry location of the place, `nil` when the location is kept aside.
  var entryLocation: PromptBlock.Location? {
    kind == 0 ? nil : .entry(index: value, kind: Self.entryKinds[Int(kind) - 1])
  }
}
