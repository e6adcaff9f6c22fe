/// What one turn has added so far, while its rounds run: the step that keeps
/// the stored conversation apart from the turn's new entries until the turn
/// is committed.
struct TurnLedger {
  /// The stored entries after the instructions entry, as they were when the turn began.
  let conversation: ArraySlice<Transcript.Entry>
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
  init(stored: Transcript, prompt: Transcript.Prompt, makeID: () -> String) {
    var conversation = stored.entries[...]
    if case .instructions(let existing) = conversation.first {
      instructionsID = existing.id
      conversation = conversation.dropFirst()
    } else {
      instructionsID = makeID()
    }
    self.conversation = conversation
    newEntries = [.prompt(prompt)]
  }

  /// The history a round starts from: `instructions` (when there are any),
  /// the stored conversation, then the turn's new entries.
  func storedHistory(instructions: Transcript.Instructions?) -> Transcript {
    var history = Transcript(entries: conversation)
    history.append(contentsOf: newEntries)
    if let instructions { history.insert(.instructions(instructions), at: 0) }
    return history
  }

  /// The transcript to commit when the turn succeeds.
  var committedTranscript: Transcript {
    storedHistory(instructions: latestInstructions)
  }

  /// Adds what a generation produced.
  mutating func append(generated entries: [Transcript.Entry], usage: GenerationUsage) {
    newEntries.append(contentsOf: entries)
    self.usage += usage
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
