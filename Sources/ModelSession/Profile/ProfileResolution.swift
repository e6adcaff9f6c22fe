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
  /// Notes for the generation record, such as which skills rewrote the instructions.
  public var notes: [GenerationNote] = []
  /// How much retained context the history modifiers put back after a cut;
  /// `nil` for the defaults (see ``ContextRetention``). The skills catalog sets it.
  public var contextRetention: ContextRetention?

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
