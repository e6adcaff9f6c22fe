/// A modifier that rewrites the history the model sees with a closure.
public struct HistoryTransform: DynamicProfileModifier {
  /// The stage's name in generation records.
  public var name: String
  private let transform: @Sendable (Transcript) async throws -> Transcript

  /// Creates the modifier.
  public init(
    name: String = "historyTransform",
    _ transform: @escaping @Sendable (Transcript) async throws -> Transcript
  ) {
    self.name = name
    self.transform = transform
  }

  /// Applies the closure.
  public func transformHistory(
    _ history: Transcript, in context: ProfileModifierContext
  ) async throws -> Transcript {
    try await transform(history)
  }
}

/// A modifier that runs a closure before each generation.
public struct OnPrompt: DynamicProfileModifier {
  /// The stage's name in generation records.
  public var name: String
  private let action: @Sendable (ProfileModifierContext) async throws -> Void

  /// Creates the modifier.
  public init(
    name: String = "onPrompt", _ action: @escaping @Sendable (ProfileModifierContext) async throws -> Void
  ) {
    self.name = name
    self.action = action
  }

  /// Runs the closure.
  public func willGenerate(in context: ProfileModifierContext) async throws {
    try await action(context)
  }
}

extension DynamicProfile {
  /// Rewrites the history the model sees; the session's transcript keeps
  /// everything (a modifier that should commit its result implements
  /// ``DynamicProfileModifier`` and calls ``ProfileModifierContext/commitHistory()``).
  ///
  /// ```swift
  /// profile.historyTransform { history in Transcript(entries: history.suffix(10)) }
  /// ```
  public func historyTransform(
    _ transform: @escaping @Sendable (Transcript) async throws -> Transcript
  ) -> ModifiedProfile<Self, HistoryTransform> {
    modifier(HistoryTransform(transform))
  }

  /// Runs `action` before each generation, including those inside a tool loop.
  /// An error fails the turn.
  public func onPrompt(
    _ action: @escaping @Sendable (ProfileModifierContext) async throws -> Void
  ) -> ModifiedProfile<Self, OnPrompt> {
    modifier(OnPrompt(action))
  }
}
