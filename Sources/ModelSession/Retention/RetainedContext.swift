/// Tool output that must stay in the context the model sees when a history
/// modifier drops the turn that delivered it, such as a skill's body.
///
/// Return it from a tool's `call(arguments:)`: the model reads `content` as
/// usual, and the session marks the output with `key` in its metadata
/// (``metadataKey``). When `rollingWindow`, `summarizeHistory` or
/// `compactingHistory` cuts the history before such an output, they put a
/// copy of the call and its output back right after the cut (see
/// ``RetainedContextLedger``), once per key, most recently delivered first,
/// within the ``ContextRetention`` caps; what does not fit is left out and a
/// generation note names its key. `droppingCompletedToolCalls` drops such a
/// call once answered, as any other, and names its key in a note (the tool
/// delivers it again when called); it keeps the copies put back after a cut.
/// Nothing is re-attached between compactions, so the history the model sees
/// stays append-only.
///
/// ```swift
/// func call(arguments: GeneratedContent) async throws -> RetainedContext {
///   RetainedContext(key: "style-guide", content: Prompt(styleGuide))
/// }
/// ```
public struct RetainedContext: RetainableToolOutput, Sendable, Equatable {
  /// The metadata key of a tool output that is retained context; its value is the key, a string.
  public static let metadataKey = "contextkit.retainedContext"
  /// The metadata key (value `true`) of a copy put back after a cut.
  public static let reattachedMetadataKey = "contextkit.reattached"

  /// What identifies the content: two outputs with the same key are the same
  /// context, and only the latest is re-attached.
  public var key: String
  /// What the model reads.
  public var content: Prompt

  /// Creates retained context.
  public init(key: String, content: some PromptRepresentable) {
    self.key = key
    self.content = content.promptRepresentation
  }

  /// The content.
  public var promptRepresentation: Prompt { content }

  /// Itself.
  public var retainedContext: RetainedContext? { self }
}

/// A tool's output type that is sometimes retained context (see
/// ``RetainedContext``): a tool whose replies are either a document to keep
/// or a short message returns such a type, and the session marks the output
/// when ``retainedContext`` is not `nil`.
public protocol RetainableToolOutput: PromptRepresentable {
  /// The retained context this output is, or `nil` for an ordinary output.
  var retainedContext: RetainedContext? { get }
}

extension Transcript.ToolOutput {
  /// The key of the retained context this output carries, or `nil` (see ``RetainedContext``).
  public var retainedContextKey: String? {
    guard let value = metadata[RetainedContext.metadataKey], case .string(let key) = value.kind else {
      return nil
    }
    return key
  }

  /// Whether the output is a copy a history modifier put back after a cut.
  public var isReattachedContext: Bool {
    metadata[RetainedContext.reattachedMetadataKey] != nil
  }
}

extension Transcript.Entry {
  /// The key of the retained context a tool output carries; `nil` for any other entry.
  public var retainedContextKey: String? {
    if case .toolOutput(let output) = self { output.retainedContextKey } else { nil }
  }
}
