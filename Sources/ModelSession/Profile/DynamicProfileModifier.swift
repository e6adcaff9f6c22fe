/// A step that runs before each generation: it may look at the turn
/// (`willGenerate`) and rewrite the history the model sees
/// (`transformHistory`). The session's stored transcript is not changed,
/// unless the modifier commits what it returns
/// (``ProfileModifierContext/commitHistory()``).
///
/// Modifiers apply outside-in: in `profile.a().b().c()`, `c` sees the history
/// first and `a` last.
///
/// ```swift
/// struct DroppingImages: DynamicProfileModifier {
///   func transformHistory(_ history: Transcript, in context: ProfileModifierContext) async throws -> Transcript {
///     Transcript(entries: history.map { $0.removingAttachments() })
///   }
/// }
/// ```
public protocol DynamicProfileModifier: Sendable {
  /// The stage's name in generation records. Defaults to the type's name.
  var name: String { get }

  /// Runs before each generation, tool-loop generations included. Errors
  /// fail the turn.
  func willGenerate(in context: ProfileModifierContext) async throws

  /// Returns the history the model should see. `history` starts with the
  /// instructions entry, when there is one. The default returns it unchanged.
  func transformHistory(_ history: Transcript, in context: ProfileModifierContext) async throws -> Transcript
  /// Whether the modifier compacts the history to fit a window the model
  /// said it exceeded (``ProfileModifierContext/contextOverflow``). When a
  /// profile has such a modifier, a session retries a generation refused
  /// with `LanguageModelError.contextSizeExceeded` once. Defaults to `false`.
  var compactsOnContextOverflow: Bool { get }
}

extension DynamicProfileModifier {
  /// The type's name.
  public var name: String { String(describing: Self.self) }

  /// `false`: the modifier does not compact on a context overflow.
  public var compactsOnContextOverflow: Bool { false }

  /// Does nothing.
  public func willGenerate(in context: ProfileModifierContext) async throws {}

  /// Returns `history` unchanged.
  public func transformHistory(
    _ history: Transcript, in context: ProfileModifierContext
  ) async throws
    -> Transcript
  {
    history
  }
}

/// A profile with one more modifier.
public struct ModifiedProfile<Content: DynamicProfile, Modifier: DynamicProfileModifier>: DynamicProfile {
  /// The profile modified.
  public var content: Content
  /// The modifier added.
  public var modifier: Modifier

  /// Creates a modified profile.
  public init(content: Content, modifier: Modifier) {
    self.content = content
    self.modifier = modifier
  }

  /// The profile itself: a building block resolves directly.
  public var body: Self { self }

  /// Resolves the content, then adds the modifier after its modifiers.
  public func resolve(into resolution: inout ProfileResolution) async throws {
    try await content.resolve(into: &resolution)
    resolution.modifiers.append(modifier)
  }
}

extension DynamicProfile {
  /// Adds a modifier. It runs before the modifiers written before it.
  public func modifier<Modifier: DynamicProfileModifier>(
    _ modifier: Modifier
  ) -> ModifiedProfile<Self, Modifier> {
    ModifiedProfile(content: self, modifier: modifier)
  }
}
