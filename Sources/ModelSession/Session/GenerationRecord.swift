import Foundation

/// What the session did for one generation: the stored history, the history
/// after each modifier stage, what the model was sent, and what came back.
///
/// Records are `Codable`, so an app can save them and analyze them later
/// (for instance for prompt-cache reuse).
public struct GenerationRecord: Sendable, Equatable, Codable {
  /// One modifier stage: its name and the history after it ran.
  public struct Stage: Sendable, Equatable, Codable {
    /// The modifier's name.
    public var name: String
    /// The history after the modifier.
    public var transcript: Transcript

    /// Creates a stage.
    public init(name: String, transcript: Transcript) {
      self.name = name
      self.transcript = transcript
    }
  }

  /// How the generation ended.
  public enum Outcome: Sendable, Equatable, Codable {
    /// The model answered, or asked for tools.
    case completed
    /// The generation failed; the turn was rolled back.
    case failed(String)
    /// The generation was cancelled; the turn was rolled back.
    case cancelled
  }

  /// The request's id.
  public var requestID: UUID
  /// The turn's index in the session, from 0: the number of turns the
  /// transcript held when the turn began (a failed or cancelled turn is rolled
  /// back, so the next turn has the same index).
  public var turnIndex: Int
  /// The generation's round in the turn's tool loop, from 0.
  public var round: Int
  /// When the generation started.
  public var date: Date
  /// The history as stored (with the instructions of this generation first),
  /// before any modifier ran.
  public var storedHistory: Transcript
  /// The history after each modifier, in the order they ran (outside-in).
  public var stages: [Stage]
  /// The transcript sent to the model (the last stage's history).
  public var sentTranscript: Transcript
  /// The instructions of this generation, when there were any.
  public var instructions: Transcript.Instructions?
  /// The tools offered.
  public var toolDefinitions: [Transcript.ToolDefinition]
  /// The generation options sent.
  public var generationOptions: GenerationOptions
  /// The context options sent.
  public var contextOptions: ContextOptions
  /// The response schema, when there was one.
  public var schema: GenerationSchema?
  /// The entries the model produced.
  public var output: [Transcript.Entry]
  /// The usage the model reported.
  public var usage: GenerationUsage
  /// Notes from modifiers, dynamic instructions and the session.
  public var notes: [GenerationNote]
  /// How the generation ended.
  public var outcome: Outcome

  /// Creates a record.
  public init(
    requestID: UUID, turnIndex: Int, round: Int, date: Date, storedHistory: Transcript, stages: [Stage],
    sentTranscript: Transcript, instructions: Transcript.Instructions?,
    toolDefinitions: [Transcript.ToolDefinition],
    generationOptions: GenerationOptions, contextOptions: ContextOptions, schema: GenerationSchema?,
    output: [Transcript.Entry], usage: GenerationUsage, notes: [GenerationNote], outcome: Outcome
  ) {
    self.requestID = requestID
    self.turnIndex = turnIndex
    self.round = round
    self.date = date
    self.storedHistory = storedHistory
    self.stages = stages
    self.sentTranscript = sentTranscript
    self.instructions = instructions
    self.toolDefinitions = toolDefinitions
    self.generationOptions = generationOptions
    self.contextOptions = contextOptions
    self.schema = schema
    self.output = output
    self.usage = usage
    self.notes = notes
    self.outcome = outcome
  }
}
