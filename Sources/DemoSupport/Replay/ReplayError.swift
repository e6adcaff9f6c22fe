/// A replay that cannot go on: the session asked for something the recording
/// does not have.
public enum ReplayError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The session asked for a generation after the last recorded one.
  case exhausted(conversation: String, generations: Int)
  /// The request does not end with the prompt the recording expects next.
  case outOfStep(conversation: String, turn: Int, expected: String, found: String)
  /// A tool was called with an argument that has no recorded output.
  case unrecordedToolCall(tool: String, argument: String)

  /// What went wrong, naming the conversation, turn or tool.
  public var description: String {
    switch self {
    case .exhausted(let conversation, let generations):
      "replay \(conversation): all \(generations) recorded generations were played and the session asked for more"
    case .outOfStep(let conversation, let turn, let expected, let found):
      "replay \(conversation), turn \(turn): expected the prompt \"\(expected.prefix(60))\", "
        + "the request ends with \"\(found.prefix(60))\""
    case .unrecordedToolCall(let tool, let argument):
      "replay: no recorded output of the tool \(tool) for \"\(argument)\""
    }
  }
}
