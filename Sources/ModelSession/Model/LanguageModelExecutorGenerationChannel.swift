import Foundation

/// Where an executor sends what the model produces, as it arrives.
///
/// The session turns the events into transcript entries: events with the same
/// `entryID` build one entry, entries appear in the order of their first event.
/// See docs/writing-a-provider.md for the rules.
///
/// ```swift
/// await channel.send(.response(entryID: responseID, action: .appendText("Hello", tokenCount: 1)))
/// ```
public struct LanguageModelExecutorGenerationChannel: Sendable {
  private let receive: @Sendable (Event) async -> Void

  /// Creates a channel that hands every event to `receive`. Sessions create
  /// channels; tests of an executor can create one that records events.
  public init(_ receive: @escaping @Sendable (Event) async -> Void) {
    self.receive = receive
  }

  /// Sends one event.
  public func send(_ event: Event) async {
    await receive(event)
  }
}

extension LanguageModelExecutorGenerationChannel {
  /// One piece of model output.
  public enum Event: Sendable {
    /// Output for a response entry.
    case response(entryID: String?, action: ResponseAction)
    /// Output for a reasoning entry.
    case reasoning(entryID: String?, action: ReasoningAction)
    /// Output for a tool-calls entry (use a different `entryID` than the response's).
    case toolCalls(entryID: String?, action: ToolCallsAction)
  }

  /// Token counts of the prompt, cumulative for the generation (the type
  /// responses report as `usage.input`).
  public typealias InputUsage = GenerationUsage.Input

  /// Token counts of the output, cumulative for the generation (the type
  /// responses report as `usage.output`).
  public typealias OutputUsage = GenerationUsage.Output

  /// What to do to a response entry.
  public enum ResponseAction: Sendable {
    /// Appends text to the response.
    case appendText(String, tokenCount: Int)
    /// Sets the generation's usage (cumulative totals, replacing earlier ones).
    case updateUsage(input: InputUsage, output: OutputUsage)
    /// Replaces the entry's metadata: a key missing from the snapshot is removed.
    case replaceMetadata([String: GeneratedContent])
    /// Adds an attachment segment (a new segment even if one has the same id).
    case addAttachmentSegment(Transcript.AttachmentSegment)
    /// Removes the attachment segment with this segment's id.
    case removeAttachmentSegment(Transcript.AttachmentSegment)
    /// Adds a custom segment, or replaces the one with the same id.
    case updateCustomSegment(any CustomSegment)

    /// Replaces the entry's metadata with a snapshot of any convertible values.
    public static func updateMetadata(_ metadata: [String: any ConvertibleToGeneratedContent]) -> Self {
      .replaceMetadata(metadata.mapValues(\.generatedContent))
    }
  }

  /// What to do to a reasoning entry.
  public enum ReasoningAction: Sendable {
    /// Appends reasoning text.
    case appendText(String, tokenCount: Int)
    /// Replaces the entry's opaque signature.
    case updateSignature(Data, tokenCount: Int)
  }

  /// What to do to a tool-calls entry.
  public enum ToolCallsAction: Sendable {
    /// Acts on the call `id` (creating it on first use); every event carries the tool's name.
    case toolCall(id: String, name: String, action: ToolCallAction)
    /// Retracts the call `id`.
    case removeToolCall(id: String)

    /// Retracts a call.
    public static func removeToolCall(_ call: Transcript.ToolCall) -> Self {
      .removeToolCall(id: call.id)
    }
  }

  /// What to do to one tool call.
  public enum ToolCallAction: Sendable {
    /// Appends a piece of the call's JSON arguments.
    case appendArguments(String, tokenCount: Int)
    /// Replaces the call's metadata: a key missing from the snapshot is removed.
    case replaceMetadata([String: GeneratedContent])

    /// Replaces the call's metadata with a snapshot of any convertible values.
    public static func updateMetadata(_ metadata: [String: any ConvertibleToGeneratedContent]) -> Self {
      .replaceMetadata(metadata.mapValues(\.generatedContent))
    }
  }
}
