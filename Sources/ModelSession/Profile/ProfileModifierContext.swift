import Synchronization

/// What a modifier knows about the generation it runs for, and where it
/// records notes for the generation record.
public final class ProfileModifierContext: Sendable {
  /// The index of the turn in the session, from 0: the number of turns the
  /// transcript held when the turn began (a failed or cancelled turn is rolled
  /// back, so the next turn has the same index).
  public let turnIndex: Int
  /// The generation's round in the turn's tool loop: 0 for the first generation after the prompt.
  public let round: Int
  /// The tools offered to the model in this generation.
  public let toolDefinitions: [Transcript.ToolDefinition]
  /// The id of the request the generation will send.
  public let requestID: String
  /// The session's model, which the generation will run on; `nil` when the
  /// modifier runs outside a session (a test or a benchmark calling it
  /// directly). A summarizing modifier given no model of its own uses this one.
  public let model: (any LanguageModel)?
  /// How much retained context a modifier puts back after a cut (see ``RetainedContextLedger``).
  public let contextRetention: ContextRetention
  /// The tokens the generation reserves for the response: its
  /// `maximumResponseTokens`, 0 when it sets none. Token budgets count them,
  /// so that a prompt that fits leaves room to answer.
  public let reservedResponseTokens: Int
  /// The latest refusal of a prompt as too long that the session recovered
  /// from (see ``ContextOverflow``): set in the generation retried after it
  /// and in every later generation of the session; `nil` before.
  public let contextOverflow: ContextOverflow?
  /// Whether this generation is the retry of one the model refused as too
  /// long (``contextOverflow`` holds what it said).
  public let isRetryAfterContextOverflow: Bool

  private let recordedNotes = Mutex<[GenerationNote]>([])
  private let commitRequested = Mutex(false)

  /// Creates a context.
  public init(
    turnIndex: Int, round: Int, toolDefinitions: [Transcript.ToolDefinition], requestID: String,
    model: (any LanguageModel)? = nil, contextRetention: ContextRetention = ContextRetention(),
    reservedResponseTokens: Int = 0, contextOverflow: ContextOverflow? = nil,
    isRetryAfterContextOverflow: Bool = false
  ) {
    self.turnIndex = turnIndex
    self.round = round
    self.toolDefinitions = toolDefinitions
    self.requestID = requestID
    self.model = model
    self.contextRetention = contextRetention
    self.reservedResponseTokens = max(0, reservedResponseTokens)
    self.contextOverflow = contextOverflow
    self.isRetryAfterContextOverflow = isRetryAfterContextOverflow
  }

  /// Records a note in the generation record.
  public func record(_ note: GenerationNote) {
    recordedNotes.withLock { $0.append(note) }
  }

  /// The notes recorded so far.
  public var notes: [GenerationNote] {
    recordedNotes.withLock { $0 }
  }

  /// Makes the history the calling modifier returns from
  /// ``DynamicProfileModifier/transformHistory(_:in:)`` the session's
  /// history, as a history modifier's result is in the framework: call it
  /// from `transformHistory`. When the turn succeeds,
  /// ``LanguageModelSession/transcript`` holds that history (then the turn's
  /// later entries), and the next generation's stored history starts from
  /// it; ``LanguageModelSession/fullTranscript`` keeps every entry, and the
  /// generation's record keeps the stored history and each stage as before.
  /// A turn that fails commits nothing. The committed history is the
  /// modifier's stage: it includes what the modifiers applied before it did.
  ///
  /// ```swift
  /// func transformHistory(_ history: Transcript, in context: ProfileModifierContext) async throws -> Transcript {
  ///   let compacted = try await compact(history)
  ///   context.commitHistory()
  ///   return compacted
  /// }
  /// ```
  public func commitHistory() {
    commitRequested.withLock { $0 = true }
  }

  /// Whether a modifier asked to commit its history since the last call; clears the request.
  func takeCommitRequest() -> Bool {
    commitRequested.withLock { requested in
      defer { requested = false }
      return requested
    }
  }
}
