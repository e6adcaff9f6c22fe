/// What one turn has added so far, while its rounds run: the step that keeps
/// the stored conversation apart from the turn's new entries until the turn
/// is committed.
///
/// A modifier that commits its history (``ProfileModifierContext/commitHistory()``)
/// replaces the stored conversation in the ledger; the full conversation
/// keeps every entry, for ``LanguageModelSession/fullTranscript``.
struct TurnLedger {
  /// The stored entries after the instructions entry: as they were when the
  /// turn began, or as the latest committing modifier left them.
  private(set) var conversation: ArraySlice<Transcript.Entry>
  /// The entries after the instructions entry of the session's full
  /// transcript, as they were when the turn began.
  let fullConversation: ArraySlice<Transcript.Entry>
  /// Whether the full transcript differs from the stored one: a modifier
  /// committed its history in this turn or an earlier one.
  private(set) var hasSeparateFullTranscript: Bool
  /// Where the turn's entries that follow `conversation` start in `newEntries`:
  /// 0, or the count when a modifier last committed its history.
  private var pendingStart = 0
  /// The id the instructions entry keeps from round to round and turn to turn.
  let instructionsID: String
  /// The prompt and everything the turn produced after it.
  private(set) var newEntries: [Transcript.Entry]
  /// The usage of every generation of the turn.
  private(set) var usage = GenerationUsage.zero
  /// The tool rounds run so far.
  private(set) var toolRounds = 0
  /// The instructions entry of the latest round; it is the one committed.
  var latestInstructions: Transcript.Instructions?

  /// Starts a turn on `stored` with `prompt`; a new instructions id is made
  /// with `makeID` when the stored transcript has no instructions entry.
  /// `full` is the session's full transcript, `nil` when it is `stored`.
  init(stored: Transcript, full: Transcript? = nil, prompt: Transcript.Prompt, makeID: () -> String) {
    var conversation = stored.entries[...]
    if case .instructions(let existing) = conversation.first {
      instructionsID = existing.id
      conversation = conversation.dropFirst()
    } else {
      instructionsID = makeID()
    }
    self.conversation = conversation
    if let full {
      fullConversation = Self.droppingInstructions(full.entries[...])
    } else {
      fullConversation = conversation
    }
    hasSeparateFullTranscript = full != nil
    newEntries = [.prompt(prompt)]
  }

  /// The history a round starts from: `instructions` (when there are any),
  /// the stored conversation, then the turn's new entries (those after the
  /// latest commit).
  func storedHistory(instructions: Transcript.Instructions?) -> Transcript {
    var history = Transcript(entries: conversation)
    history.append(contentsOf: newEntries[pendingStart...])
    if let instructions { history.insert(.instructions(instructions), at: 0) }
    return history
  }

  /// The transcript to commit when the turn succeeds.
  var committedTranscript: Transcript {
    storedHistory(instructions: latestInstructions)
  }

  /// The full transcript to commit when the turn succeeds: every entry,
  /// whatever a modifier committed in place of some; `nil` while no
  /// modifier has committed (it is then `committedTranscript`).
  var committedFullTranscript: Transcript? {
    guard hasSeparateFullTranscript else { return nil }
    var history = Transcript(entries: fullConversation)
    history.append(contentsOf: newEntries)
    if let latestInstructions { history.insert(.instructions(latestInstructions), at: 0) }
    return history
  }

  /// Makes `history` (what a modifier committed; its instructions entry, if
  /// any, is left out) the stored conversation; the turn's entries that
  /// follow it are those added from now on.
  mutating func commit(history: Transcript) {
    conversation = Self.droppingInstructions(history.entries[...])
    pendingStart = newEntries.count
    hasSeparateFullTranscript = true
  }

  private static func droppingInstructions(
    _ entries: ArraySlice<Transcript.Entry>
  ) -> ArraySlice<Transcript.Entry> {
    if case .instructions = entries.first { return entries.dropFirst() }
    return entries
  }

  /// Adds what a generation produced.
  mutating func append(generated entries: [Transcript.Entry], usage: GenerationUsage) {
    newEntries.append(contentsOf: entries)
    self.usage += usage
  }

  /// Adds the entries a profile appended before a generation (see
  /// `ProfileResolution.appendedEntries`), after checking that the transcript
  /// can hold them: no instructions entry, and every tool output answers a
  /// call made before it. Nothing is added when one is refused.
  mutating func append(profileEntries entries: [Transcript.Entry]) throws {
    guard !entries.isEmpty else { return }
    var callIDs: Set<String> = []
    for entry in conversation + newEntries[pendingStart...] {
      if case .toolCalls(let calls) = entry { callIDs.formUnion(calls.map(\.id)) }
    }
    for (index, entry) in entries.enumerated() {
      switch entry {
      case .instructions:
        throw LanguageModelSession.SessionError.invalidProfileEntry(
          reason: "entry \(index) is an instructions entry; a conversation has one, at its start")
      case .toolCalls(let calls):
        callIDs.formUnion(calls.map(\.id))
      case .toolOutput(let output) where !callIDs.contains(output.id):
        throw LanguageModelSession.SessionError.invalidProfileEntry(
          reason: "entry \(index) is the output of tool \"\(output.toolName)\" with id \"\(output.id)\", "
            + "which answers no call before it")
      default:
        break
      }
    }
    newEntries.append(contentsOf: entries)
  }

  /// Adds the outputs of a round of tool calls.
  mutating func append(toolOutputs: [Transcript.ToolOutput]) {
    newEntries.append(contentsOf: toolOutputs.map(Transcript.Entry.toolOutput))
  }

  /// Counts one more round of tool calls, or throws when the turn already ran `limit`.
  mutating func startToolRound(limit: Int) throws {
    guard toolRounds < limit else {
      throw LanguageModelSession.SessionError.toolRoundLimitExceeded(limit: limit)
    }
    toolRounds += 1
  }
}
