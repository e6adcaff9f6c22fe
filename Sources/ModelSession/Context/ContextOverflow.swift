/// What the model said when it refused a prompt as larger than its context
/// window, as a session hands it to the history modifiers that compact.
///
/// A session that gets `LanguageModelError.contextSizeExceeded` from a
/// generation whose profile has a modifier that
/// ``DynamicProfileModifier/compactsOnContextOverflow`` retries the
/// generation once, with this value in ``ProfileModifierContext/contextOverflow``;
/// it stays there for the session's later generations, so that the
/// compaction that made the prompt fit is made again every time.
///
/// A modifier with a token counter of its own measures ``refusedTranscript``
/// with it: the ratio of the model's count (``promptTokenCount``) to its own
/// says how far its counts are off, and ``fittingTokenCount(counted:)`` turns
/// the window into the counter's units.
public struct ContextOverflow: Sendable, Equatable {
  /// The model's window, in the model's tokens; `nil` when neither the error
  /// nor the model says it.
  public var contextSize: Int?
  /// The refused prompt's size, in the model's tokens; `nil` when the error
  /// does not say it.
  public var promptTokenCount: Int?
  /// The tokens the refused request reserved for the response (its
  /// `maximumResponseTokens`, 0 when it set none).
  public var reservedResponseTokens: Int
  /// The transcript the refused request sent (what the modifiers produced).
  public var refusedTranscript: Transcript
  /// The model's own words, for notes.
  public var message: String

  /// Creates the value.
  public init(
    contextSize: Int?, promptTokenCount: Int?, reservedResponseTokens: Int, refusedTranscript: Transcript,
    message: String
  ) {
    self.contextSize = contextSize.flatMap { $0 > 0 ? $0 : nil }
    self.promptTokenCount = promptTokenCount.flatMap { $0 > 0 ? $0 : nil }
    self.reservedResponseTokens = max(0, reservedResponseTokens)
    self.refusedTranscript = refusedTranscript
    self.message = message
  }

  /// The most tokens of history that fit, in the units of a counter that
  /// counted ``refusedTranscript`` as `counted` tokens: the window less the
  /// reserved response, scaled by the counter's error on the refused prompt
  /// (`counted / promptTokenCount`).
  ///
  /// When the model gave no window, a prompt one token smaller than the
  /// refused one (as counted) is the most that is known to be worth trying;
  /// when it gave a window but no prompt size, the refused prompt is taken
  /// to have just filled the window. Always less than `counted` (the
  /// refused prompt did not fit, whatever the numbers say), never less than 0.
  ///
  /// For example, a window of 2,048 tokens, a response reserve of 48, a
  /// refused prompt of 2,500 tokens that a counter measured as 1,250: the
  /// counter counts half, so `(2_048 - 48) * 1_250 / 2_500` = 1,000 of its
  /// tokens fit.
  public func fittingTokenCount(counted: Int) -> Int {
    guard let contextSize else { return max(0, counted.subtractingSaturated(1)) }
    let room = max(0, contextSize - reservedResponseTokens)
    let modelCount = max(promptTokenCount ?? contextSize, 1)
    // In Double: the product of two large counts must not trap.
    let scaled = (Double(room) * Double(max(counted, 0)) / Double(modelCount)).rounded(.down)
    let fitting = scaled >= Double(Int.max) ? Int.max : Int(scaled)
    return max(0, min(fitting, counted.subtractingSaturated(1)))
  }
}
