import ModelSession

/// A generation the session retried after the model refused its prompt as
/// larger than its window, as the retry's generation record says: its
/// `contextOverflowRecovered` note, with the model's numbers.
///
/// ```swift
/// for recovery in RecoveredGeneration.all(in: run.records, conversation: run.conversation, strategy: run.strategy) {
///   print(recovery.line)
/// }
/// ```
package struct RecoveredGeneration: Sendable, Hashable, Codable {
  /// The conversation's name.
  package var conversation: String
  /// The strategy it ran under.
  package var strategy: CompressionStrategy
  /// The generation's index among the run's records.
  package var generationIndex: Int
  /// The user turn the generation belongs to.
  package var turnIndex: Int
  /// The generation's round in its turn's tool loop.
  package var round: Int
  /// The session's note.
  package var note: GenerationNote

  /// Creates a recovered generation.
  package init(
    conversation: String, strategy: CompressionStrategy, generationIndex: Int, turnIndex: Int, round: Int,
    note: GenerationNote
  ) {
    self.conversation = conversation
    self.strategy = strategy
    self.generationIndex = generationIndex
    self.turnIndex = turnIndex
    self.round = round
    self.note = note
  }

  /// The recovered generations among `records`, one per
  /// `contextOverflowRecovered` note, in order.
  package static func all(
    in records: [GenerationRecord], conversation: String, strategy: CompressionStrategy
  ) -> [RecoveredGeneration] {
    records.enumerated().flatMap { index, record in
      record.notes.filter { $0.kind == .contextOverflowRecovered }.map {
        RecoveredGeneration(
          conversation: conversation, strategy: strategy, generationIndex: index, turnIndex: record.turnIndex,
          round: record.round, note: $0)
      }
    }
  }

  /// `compactingHistory, generation 57 (turn 28.0): the model refused …`.
  package var line: String {
    "\(strategy.rawValue), generation \(generationIndex) (turn \(turnIndex).\(round)): \(note.message)"
  }
}
