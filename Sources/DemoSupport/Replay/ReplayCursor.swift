import ModelSession
import Synchronization

/// Where a ``ReplayLanguageModel`` is in its conversation.
public final class ReplayCursor: Sendable, Hashable {
  /// A generation to play, with its place in the conversation.
  public struct Position: Sendable {
    /// The turn's index.
    public var turnIndex: Int
    /// The generation's index in the turn.
    public var generationIndex: Int
    /// What to play.
    public var generation: ReplayGeneration
  }

  /// The conversation played.
  public let conversation: ReplayConversation
  private let next = Mutex<(turn: Int, generation: Int)>((0, 0))
  private let requests = Mutex(0)

  /// Starts at the first generation of the first turn.
  public init(conversation: ReplayConversation) {
    self.conversation = conversation
  }

  /// The generations played so far.
  public var playedCount: Int {
    let (turn, generation) = next.withLock { $0 }
    return conversation.turns.prefix(turn).reduce(0) { $0 + $1.generations.count } + generation
  }

  /// The generations asked for so far, those that failed included.
  public var requestCount: Int { requests.withLock { $0 } }

  /// The next generation, after checking that a turn's first request ends with its prompt.
  func advance(checking transcript: Transcript) throws(ReplayError) -> Position {
    requests.withLock { $0 += 1 }
    let conversation = conversation
    return try next.withLock { (next) throws(ReplayError) -> Position in
      var (turn, generation) = next
      while turn < conversation.turns.count, generation >= conversation.turns[turn].generations.count {
        turn += 1
        generation = 0
      }
      guard turn < conversation.turns.count else {
        throw .exhausted(conversation: conversation.name, generations: conversation.generationCount)
      }
      let recorded = conversation.turns[turn]
      if generation == 0 {
        let found = Self.lastPromptText(transcript)
        guard found == recorded.prompt else {
          throw .outOfStep(
            conversation: conversation.name, turn: turn, expected: recorded.prompt, found: found)
        }
      }
      next = (turn, generation + 1)
      return Position(
        turnIndex: turn, generationIndex: generation, generation: recorded.generations[generation])
    }
  }

  /// The text of the last entry when it is a prompt, without a summary that
  /// `summarizeHistory` wrote in front of it (its segments' ids start with
  /// `HistorySummary.entryIDPrefix`, "contextkit.summary."): the user's own words.
  private static func lastPromptText(_ transcript: Transcript) -> String {
    guard case .prompt(let prompt) = transcript.entries.last else { return "" }
    return prompt.segments.compactMap { segment in
      guard case .text(let text) = segment, !text.id.hasPrefix(summarySegmentIDPrefix) else { return nil }
      return text.content
    }.joined()
  }

  /// The start of the ids of the segments a summary adds to a prompt (`HistorySummary.entryIDPrefix`).
  private static let summarySegmentIDPrefix = "contextkit.summary."

  /// Cursors are equal when they are the same object.
  public static func == (lhs: ReplayCursor, rhs: ReplayCursor) -> Bool { lhs === rhs }

  /// Hashes the object's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
