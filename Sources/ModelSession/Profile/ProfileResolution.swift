/// A profile evaluated for one generation.
public struct ProfileResolution: Sendable {
  /// The instruction segments, in order.
  public var instructionSegments: [Transcript.Segment] = []
  /// The tools offered to the model, in order.
  public var tools: [any Tool] = []
  /// The modifiers, in the order they were written (innermost first); the
  /// session applies them outside-in, that is from the last to the first.
  public var modifiers: [any DynamicProfileModifier] = []
  /// The temperature set on the profile, used when a request sets none.
  public var temperature: Double?
  /// The reasoning level set on the profile.
  public var reasoningLevel: ContextOptions.ReasoningLevel?
  /// The model the profile names (``DynamicProfile/model(_:)``); `nil` when
  /// the generation runs on the model the session was created with.
  public var model: (any LanguageModel)?
  /// Notes for the generation record, such as which skills rewrote the instructions.
  public var notes: [GenerationNote] = []
  /// How much retained context the history modifiers put back after a cut;
  /// `nil` for the defaults (see ``ContextRetention``). The skills catalog sets it.
  public var contextRetention: ContextRetention?
  /// The turn the profile is evaluated for; the session sets it before each
  /// generation, and it is `nil` when the profile is evaluated outside a
  /// session (a command that prints a catalog, a test).
  public var turn: ProfileTurn?
  /// Entries the profile adds to the conversation before this generation.
  ///
  /// The session appends them after the turn's entries so far (right after
  /// the prompt at round 0), stores them in the transcript with the turn like
  /// the model's own entries, and the model sees them from this generation on.
  /// Because they go at the end, the prefix a prompt cache holds is kept. The
  /// skills catalog delivers the body of a skill the user or the app activated
  /// this way: a call of its activation tool and the tool's output. An
  /// instructions entry, or a tool output that answers no call, fails the turn
  /// with `LanguageModelSession.SessionError.invalidProfileEntry`.
  public var appendedEntries: [Transcript.Entry] = []

  /// An empty resolution.
  public init() {}

  /// Appends instructions.
  public mutating func append(_ instructions: Instructions) {
    instructionSegments.append(contentsOf: instructions.segments)
  }

  /// Appends a tool.
  public mutating func append(_ tool: any Tool) {
    tools.append(tool)
  }
}
