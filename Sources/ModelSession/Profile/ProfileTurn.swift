/// The turn a profile is evaluated for, which the session sets on
/// ``ProfileResolution/turn`` before each generation: the user's prompt, the
/// round of the tool loop, and the conversation stored so far.
///
/// A profile that reacts to what the user typed reads it here. The skills
/// catalog, for example, activates a skill the prompt names as `/name`.
public struct ProfileTurn: Sendable {
  /// The prompt that started the turn, exactly as the user gave it.
  public var prompt: Transcript.Prompt
  /// The generation's round in the turn's tool loop: 0 for the first generation after the prompt.
  public var round: Int
  /// The stored conversation (without its instructions entry): everything
  /// committed before the turn, then the turn's prompt and what the turn has
  /// added since. History modifiers have not run on it.
  public var history: Transcript

  /// Creates a turn.
  public init(prompt: Transcript.Prompt, round: Int, history: Transcript) {
    self.prompt = prompt
    self.round = round
    self.history = history
  }
}
