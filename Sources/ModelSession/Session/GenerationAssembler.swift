import Foundation

/// Builds transcript entries from the events of one generation, following the
/// channel's rules: events with the same entry id build one entry; a `nil` id
/// continues the trailing entry of the same kind when the previous event was of
/// that kind, and starts a new entry otherwise; entries keep the order in which
/// they first appeared.
struct GenerationAssembler {
  private enum EventKind { case response, reasoning, toolCalls }

  /// One entry being built. A class, so that appending to a long text is done
  /// in place (an enum payload copied out and back would copy the text).
  private final class Draft {
    let kind: EventKind
    let id: String
    var segments: [Transcript.Segment] = []
    /// Text appended after the last segment, not yet made a segment.
    var trailingText = ""
    var trailingTextID = UUID().uuidString
    var metadata: [String: GeneratedContent] = [:]
    var signature: Data?
    var calls: [ToolCallDraft] = []

    init(kind: EventKind, id: String) {
      self.kind = kind
      self.id = id
    }

    func appendText(_ text: String) {
      trailingText += text
    }

    /// Makes the trailing text a segment, before a segment of another kind follows it.
    func closeText() {
      guard !trailingText.isEmpty else { return }
      segments.append(.text(Transcript.TextSegment(id: trailingTextID, content: trailingText)))
      trailingText = ""
      trailingTextID = UUID().uuidString
    }

    var allSegments: [Transcript.Segment] {
      guard !trailingText.isEmpty else { return segments }
      return segments + [.text(Transcript.TextSegment(id: trailingTextID, content: trailingText))]
    }

    var text: String {
      segments.joinedText + trailingText
    }

    /// Whether the entry holds nothing: no segment, no text, no metadata, no call.
    var isEmpty: Bool {
      segments.isEmpty && trailingText.isEmpty && metadata.isEmpty && calls.isEmpty && signature == nil
    }
  }

  struct ToolCallDraft: Sendable {
    /// Below this many bytes, the partial arguments are refreshed on every piece.
    static let eagerRefreshBytes = 4_096

    var id: String
    var name: String
    var arguments: String
    var metadata: [String: GeneratedContent]
    /// Parses the arguments as they stream, so that a snapshot never reads
    /// again the text that came before (`nil` once the text is not JSON).
    private var parser: StreamingJSONParser? = StreamingJSONParser()
    /// The UTF-8 length of the text handed to the parser so far.
    private var parsedByteCount = 0
    /// The text received but not yet handed to the parser.
    private var unparsed = ""
    /// The arguments parsed so far, as partial JSON.
    private(set) var partialArguments = GeneratedContent(properties: [:])
    /// Whether anything but whitespace has been parsed.
    private var hasValue = false

    init(id: String, name: String, metadata: [String: GeneratedContent] = [:]) {
      self.id = id
      self.name = name
      self.metadata = metadata
      self.arguments = ""
    }

    /// Appends a piece of the arguments' text.
    ///
    /// The partial arguments follow every piece while the text is short. Past
    /// `eagerRefreshBytes`, they are refreshed once the unparsed text reaches
    /// half of what was parsed: a snapshot costs about as much as the text so
    /// far (the string being read and the open containers are rebuilt), so
    /// refreshing on a geometric schedule keeps the whole stream linear in the
    /// arguments' length instead of quadratic. The finished arguments are
    /// always parsed whole (see `arguments(from:)`).
    mutating func appendArguments(_ text: String) {
      guard !text.isEmpty else { return }
      arguments += text
      guard parser != nil else { return }
      unparsed += text
      let pending = unparsed.utf8.count
      guard parsedByteCount < Self.eagerRefreshBytes || pending * 2 >= parsedByteCount else { return }
      refreshPartialArguments()
    }

    /// Hands the unparsed text to the parser and takes its value.
    private mutating func refreshPartialArguments() {
      let piece = unparsed
      unparsed = ""
      parsedByteCount += piece.utf8.count
      do {
        let content = try parser?.append(piece)
        // Whitespace alone stays an empty object, as for a call with no arguments.
        if !hasValue { hasValue = piece.contains { !$0.isWhitespace } }
        if hasValue, let content { partialArguments = content }
      } catch {
        parser = nil
        partialArguments = GeneratedContent(properties: [:])
      }
    }
  }

  private var drafts: [Draft] = []
  private var draftByEntryID: [String: Draft] = [:]
  private var lastDraft: Draft?

  /// The usage the executor reported, replaced wholesale on each update.
  private(set) var reportedUsage: GenerationUsage?
  /// The sum of the token counts that came with output events.
  private(set) var streamedOutputTokens = 0

  /// The usage of the generation: the reported one, else the streamed token counts.
  var usage: GenerationUsage {
    reportedUsage ?? GenerationUsage(output: .init(totalTokenCount: streamedOutputTokens))
  }

  mutating func apply(_ event: LanguageModelExecutorGenerationChannel.Event) {
    switch event {
    case .response(let entryID, let action):
      applyResponse(draft(for: entryID, kind: .response), action)
    case .reasoning(let entryID, let action):
      applyReasoning(draft(for: entryID, kind: .reasoning), action)
    case .toolCalls(let entryID, let action):
      applyToolCalls(draft(for: entryID, kind: .toolCalls), action)
    }
  }

  /// The draft an event goes to. An id already used by an entry of another
  /// kind is a provider bug; such an event starts a separate entry rather than
  /// corrupting the first.
  private mutating func draft(for entryID: String?, kind: EventKind) -> Draft {
    let found: Draft?
    if let entryID {
      found = draftByEntryID[entryID].flatMap { $0.kind == kind ? $0 : nil }
    } else {
      found = lastDraft.flatMap { $0.kind == kind ? $0 : nil }
    }
    if let found {
      lastDraft = found
      return found
    }
    let id = entryID.flatMap { draftByEntryID[$0] == nil ? $0 : nil } ?? UUID().uuidString
    let created = Draft(kind: kind, id: id)
    drafts.append(created)
    draftByEntryID[id] = created
    lastDraft = created
    return created
  }

  private mutating func applyResponse(
    _ draft: Draft, _ action: LanguageModelExecutorGenerationChannel.ResponseAction
  ) {
    switch action {
    case .appendText(let text, let tokenCount):
      streamedOutputTokens.addSaturated(tokenCount)
      draft.appendText(text)
    case .updateUsage(let input, let output):
      reportedUsage = GenerationUsage(input: input, output: output)
    case .replaceMetadata(let metadata):
      draft.metadata = metadata
    case .addAttachmentSegment(let segment):
      draft.closeText()
      draft.segments.append(.attachment(segment))
    case .removeAttachmentSegment(let segment):
      if let position = draft.segments.lastIndex(where: {
        if case .attachment(let existing) = $0 { existing.id == segment.id } else { false }
      }) {
        draft.segments.remove(at: position)
      }
    case .updateCustomSegment(let segment):
      if let position = draft.segments.firstIndex(where: {
        if case .custom(let existing) = $0 { existing.id == segment.id } else { false }
      }) {
        draft.segments[position] = .custom(segment)
      } else {
        draft.closeText()
        draft.segments.append(.custom(segment))
      }
    }
  }

  private mutating func applyReasoning(
    _ draft: Draft, _ action: LanguageModelExecutorGenerationChannel.ReasoningAction
  ) {
    switch action {
    case .appendText(let text, let tokenCount):
      streamedOutputTokens.addSaturated(tokenCount)
      draft.appendText(text)
    case .updateSignature(let signature, let tokenCount):
      streamedOutputTokens.addSaturated(tokenCount)
      draft.signature = signature
    }
  }

  private mutating func applyToolCalls(
    _ draft: Draft, _ action: LanguageModelExecutorGenerationChannel.ToolCallsAction
  ) {
    switch action {
    case .toolCall(let callID, let name, let callAction):
      let position: Int
      if let existing = draft.calls.firstIndex(where: { $0.id == callID }) {
        position = existing
      } else {
        draft.calls.append(ToolCallDraft(id: callID, name: name))
        position = draft.calls.count - 1
      }
      if !name.isEmpty { draft.calls[position].name = name }
      switch callAction {
      case .appendArguments(let text, let tokenCount):
        streamedOutputTokens.addSaturated(tokenCount)
        draft.calls[position].appendArguments(text)
      case .replaceMetadata(let metadata):
        draft.calls[position].metadata = metadata
      }
    case .removeToolCall(let callID):
      draft.calls.removeAll { $0.id == callID }
    }
  }

  /// The tool calls of the generation, with their raw argument text, in order.
  var toolCallDrafts: [ToolCallDraft] {
    drafts.flatMap { $0.kind == .toolCalls ? $0.calls : [] }
  }

  /// The text of the generation's response entries.
  var responseText: String {
    drafts.filter { $0.kind == .response }.map(\.text).joined()
  }

  /// The entries so far. Tool-call arguments still streaming are parsed as
  /// partial JSON; arguments that are not JSON are kept as a string, so that
  /// nothing is lost and the tool loop can tell the model. Tool-call entries
  /// left with no call are omitted.
  func entries(partial: Bool) -> [Transcript.Entry] {
    var result: [Transcript.Entry] = []
    result.reserveCapacity(drafts.count)
    // A response entry that only carried usage (no text, segment or metadata) is not kept when the
    // generation produced something else, such as tool calls: usage belongs to the generation.
    let producedOther = drafts.contains { $0.kind != .response || !$0.isEmpty }
    for draft in drafts {
      switch draft.kind {
      case .response:
        if draft.isEmpty && producedOther { continue }
        result.append(
          .response(
            Transcript.Response(
              id: draft.id, assetIDs: [], segments: draft.allSegments, metadata: draft.metadata)))
      case .reasoning:
        result.append(
          .reasoning(
            Transcript.Reasoning(
              id: draft.id, segments: draft.allSegments, signature: draft.signature, metadata: draft.metadata)
          ))
      case .toolCalls:
        guard !draft.calls.isEmpty else { continue }
        let calls = draft.calls.map { call in
          Transcript.ToolCall(
            id: call.id, toolName: call.name,
            arguments: partial ? call.partialArguments : Self.arguments(from: call.arguments),
            metadata: call.metadata)
        }
        result.append(.toolCalls(Transcript.ToolCalls(id: draft.id, calls)))
      }
    }
    return result
  }

  /// Parses a finished call's argument text: JSON, or the text itself as a
  /// string when it is not JSON.
  static func arguments(from text: String) -> GeneratedContent {
    if text.allSatisfy(\.isWhitespace) { return GeneratedContent(properties: [:]) }
    return (try? GeneratedContent(json: text)) ?? GeneratedContent(kind: .string(text))
  }
}
