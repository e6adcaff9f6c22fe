extension LanguageModelSession {
  /// A tool threw while the session ran it.
  public struct ToolCallError: Error, Sendable, CustomStringConvertible {
    /// The tool that threw.
    public var tool: any Tool
    /// The call's identifier.
    public var callID: String
    /// What the tool threw.
    public var underlyingError: any Error

    /// Creates the error.
    public init(tool: any Tool, callID: String, underlyingError: any Error) {
      self.tool = tool
      self.callID = callID
      self.underlyingError = underlyingError
    }

    /// Names the tool and its error.
    public var description: String {
      "tool \"\(tool.name)\" (call \(callID)) threw: \(underlyingError)"
    }
  }

  /// A request the session cannot carry out.
  public enum SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `respond` was called while another turn was running on the session.
    case concurrentRequests
    /// The model kept calling tools past the session's limit of rounds.
    case toolRoundLimitExceeded(limit: Int)
    /// The final content does not follow the requested schema.
    case schemaMismatch(schemaName: String, reason: String)
    /// The final content could not be read as the type asked for.
    case decodingFailure(String)
    /// Two tools of the session have the same name.
    case duplicateToolName(String)
    /// The profile asked to append an entry the transcript cannot hold there
    /// (see `ProfileResolution.appendedEntries`); `reason` says which and why.
    case invalidProfileEntry(reason: String)
    /// The session was created without a model (``LanguageModelSession/init(profile:history:maximumToolRounds:)``)
    /// and its profile named none for this generation.
    case noModel

    /// What went wrong, and what to do about it.
    public var description: String {
      switch self {
      case .concurrentRequests:
        "the session is already responding; wait for the current turn (check isResponding) before sending another"
      case .toolRoundLimitExceeded(let limit):
        "the model called tools in \(limit) rounds without answering; raise maximumToolRounds or check the tools"
      case .schemaMismatch(let schemaName, let reason):
        "the response does not follow schema \"\(schemaName)\": \(reason)"
      case .decodingFailure(let reason):
        "the response could not be decoded: \(reason)"
      case .duplicateToolName(let name):
        "two tools are named \"\(name)\"; tool names must be unique in a session"
      case .invalidProfileEntry(let reason):
        "the profile appended an entry the transcript cannot hold: \(reason)"
      case .noModel:
        "the profile names no model and the session was created without one; add .model(_:) to the profile"
      }
    }
  }
}
