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

  /// Adds the entries a profile appended before a generation (see
  /// `ProfileResolution.appendedEntries`), after checking that the transcript
  /// can hold them: no instructions entry, and every tool output answers a
  /// call made before it. Nothing is added when one is refused.
  mutating func append(profileEntries entries: [Transcript.Entry]) throws {
    guard !entries.isEmpty else { return }
    var callIDs: Set<String> = []
    for entry in conversation + newEntries {
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
