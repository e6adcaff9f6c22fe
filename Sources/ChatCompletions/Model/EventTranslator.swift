import Foundation
import ModelSession

/// Turns streamed chat completion chunks into session channel events (pure).
///
/// ```swift
/// var translator = EventTranslator()
/// for try await chunk in chunks {
///   for event in try translator.translate(chunk) { await channel.send(event) }
/// }
/// try translator.finish()
/// ```
///
/// - The response, the tool calls and the reasoning each have an entry id of
///   their own, fixed for the generation.
/// - Tool-call fragments are routed by `index`. A call the server sends
///   without an id (Ollama) gets one, stable across its fragments. A fragment
///   whose id differs from the current call's on that index starts a new call
///   (some servers number every call 0), and so does a fragment without an id
///   that names another function. The name is set, not appended (some
///   servers repeat it on every fragment), and every event carries it.
/// - A call whose name never arrives, and an id used by two calls, are
///   ``ChatCompletionsError/Kind/malformedResponse`` errors: nothing is
///   silently dropped or merged. Of several nameless calls, the error names
///   the one with the lowest index.
/// - `usage` becomes `.updateUsage` with the server's cumulative totals. The
///   cached prompt tokens come from `usage.prompt_tokens_details.cached_tokens`,
///   DeepSeek's `usage.prompt_cache_hit_tokens` or, from llama.cpp's
///   `llama-server`, `timings.cache_n` (with `cache_n + prompt_n` as the
///   prompt's size when there is no `usage`), first found first, with the
///   field named as the usage's `cachedTokenSource`; when the server sends
///   none, or a figure larger than the prompt, the cached count is unknown.
///   Usage and timings may come on any chunk (the last content chunk, or a
///   final chunk without choices); the latest of each counts.
/// - `finish_reason: "length"` is recorded in the response's metadata under
///   ``finishReasonKey``; `content_filter` throws `guardrailViolation`; a
///   streamed `refusal` throws `refusal` when the stream ends.
package struct EventTranslator: Sendable {
  /// A channel event.
  package typealias Event = LanguageModelExecutorGenerationChannel.Event

  /// The response metadata key that records an unusual finish reason.
  package static let finishReasonKey = "finishReason"

  /// The entry id of the response.
  package let responseEntryID: String
  /// The entry id of the tool calls.
  package let toolCallsEntryID: String
  /// The entry id of the reasoning.
  package let reasoningEntryID: String

  private struct CallState: Sendable {
    var id: String
    var index: Int
    var isIDSynthesized: Bool
    var name = ""
    var pendingArguments = ""
    var isAnnounced = false
  }

  /// The current call of each index.
  private var calls: [Int: CallState] = [:]
  /// The ids of every call started so far, to refuse an id that comes back on another call.
  private var usedCallIDs: Set<String> = []
  /// How many calls got an id from the translator.
  private var synthesizedCallCount = 0
  private var refusal = ""
  private var finishReasons: [ChatCompletionChunk.FinishReason] = []
  private var usage: ChatCompletionChunk.Usage?
  private var timings: ChatCompletionChunk.Timings?

  /// Creates a translator with fresh entry ids (or the given ones, for tests).
  package init(
    responseEntryID: String = UUID().uuidString, toolCallsEntryID: String = UUID().uuidString,
    reasoningEntryID: String = UUID().uuidString
  ) {
    self.responseEntryID = responseEntryID
    self.toolCallsEntryID = toolCallsEntryID
    self.reasoningEntryID = reasoningEntryID
  }

  /// The finish reasons seen so far, in order.
  package var seenFinishReasons: [ChatCompletionChunk.FinishReason] { finishReasons }

  /// The events for one chunk.
  ///
  /// - Throws: `LanguageModelError.guardrailViolation` when the server ends
  ///   the choice with `content_filter`; a ``ChatCompletionsError`` of kind
  ///   ``ChatCompletionsError/Kind/malformedResponse`` when a tool call is
  ///   replaced on its index before it got a name, or an id comes back on another call.
  package mutating func translate(_ chunk: ChatCompletionChunk) throws -> [Event] {
    var events: [Event] = []
    for choice in chunk.choices where choice.index == 0 {
      try translate(choice.delta, into: &events)
      if let reason = choice.finishReason {
        try finish(with: reason, into: &events)
      }
    }
    if chunk.usage != nil || chunk.timings != nil {
      usage = chunk.usage ?? usage
      timings = chunk.timings ?? timings
      if let event = usageEvent() { events.append(event) }
    }
    return events
  }

  /// The usage seen so far, from `usage` and llama.cpp's `timings` together.
  ///
  /// Each count is kept within 0 … 2^53 (`CountRange`), the range a records
  /// file accepts back: a chunk built in code, or `cache_n + prompt_n` near
  /// the maximum, is clamped rather than recorded where it cannot be read.
  private func usageEvent() -> Event? {
    let promptTokens = usage?.promptTokens ?? timings?.promptTokens
    guard let promptTokens else { return nil }
    let cached = usage?.cachedPromptTokenFigure ?? timings?.cachedPromptTokenFigure(ofPrompt: promptTokens)
    func clamped(_ count: Int) -> Int { min(max(count, 0), CountRange.maximum) }
    return .response(
      entryID: responseEntryID,
      action: .updateUsage(
        input: .init(
          totalTokenCount: clamped(promptTokens), reportedCachedTokenCount: cached.map { clamped($0.count) },
          cachedTokenSource: cached?.source),
        output: .init(
          totalTokenCount: clamped(usage?.completionTokens ?? timings?.predictedTokens ?? 0),
          reasoningTokenCount: clamped(usage?.reasoningTokens ?? 0))))
  }

  /// Checks the end of the stream.
  ///
  /// - Throws: `LanguageModelError.refusal` when the model streamed a refusal;
  ///   a ``ChatCompletionsError`` of kind ``ChatCompletionsError/Kind/malformedResponse``
  ///   when a tool call never got its name.
  package func finish() throws {
    for call in calls.values.sorted(by: { $0.index < $1.index }) {
      try Self.checkNamed(call)
    }
    guard refusal.isEmpty else {
      throw LanguageModelError.refusal(.init(debugDescription: refusal))
    }
  }

  private mutating func translate(_ delta: ChatCompletionChunk.Delta, into events: inout [Event]) throws {
    if let reasoning = delta.reasoningContent, !reasoning.isEmpty {
      events.append(.reasoning(entryID: reasoningEntryID, action: .appendText(reasoning, tokenCount: 1)))
    }
    if let content = delta.content, !content.isEmpty {
      events.append(.response(entryID: responseEntryID, action: .appendText(content, tokenCount: 1)))
    }
    if let refusal = delta.refusal {
      self.refusal += refusal
    }
    for fragment in delta.toolCalls {
      try translate(fragment, into: &events)
    }
  }

  private mutating func translate(
    _ fragment: ChatCompletionChunk.ToolCallDelta, into events: inout [Event]
  ) throws {
    let index = fragment.index ?? 0
    let fragmentID = fragment.id.flatMap { $0.isEmpty ? nil : $0 }
    let fragmentName = fragment.function?.name.flatMap { $0.isEmpty ? nil : $0 }
    var call: CallState
    switch (calls[index], fragmentID) {
    case (let current?, nil)
    where fragmentName != nil && !current.name.isEmpty && fragmentName != current.name:
      // Another name and no id: a new call (some servers send each call whole, all at one index).
      try Self.checkNamed(current)
      call = try startSynthesizedCall(index: index)
    case (let current?, nil):
      call = current
    case (let current?, let id?) where id == current.id:
      if let fragmentName, !current.name.isEmpty, fragmentName != current.name {
        throw ChatCompletionsError(
          kind: .malformedResponse,
          message: "the server named tool call \(Self.quoted(id)) \(Self.quoted(current.name)), then "
            + Self.quoted(fragmentName))
      }
      call = current
    case (var current?, let id?) where current.isIDSynthesized && !current.isAnnounced:
      // The server's id arrived after a fragment without one: nothing carried the made-up id yet.
      try claim(id, index: index)
      usedCallIDs.remove(current.id)
      current.id = id
      current.isIDSynthesized = false
      call = current
    case (let current?, let id?):
      try Self.checkNamed(current)
      try claim(id, index: index)
      call = CallState(id: id, index: index, isIDSynthesized: false)
    case (nil, let id?):
      try claim(id, index: index)
      call = CallState(id: id, index: index, isIDSynthesized: false)
    case (nil, nil):
      guard fragment.function?.name?.isEmpty == false || fragment.function?.arguments?.isEmpty == false else {
        return  // An empty fragment starts nothing.
      }
      call = try startSynthesizedCall(index: index)
    }
    if let name = fragment.function?.name, !name.isEmpty {
      call.name = name
    }
    call.pendingArguments += fragment.function?.arguments ?? ""
    if !call.name.isEmpty, !call.isAnnounced || !call.pendingArguments.isEmpty {
      let arguments = call.pendingArguments
      call.pendingArguments = ""
      call.isAnnounced = true
      events.append(
        .toolCalls(
          entryID: toolCallsEntryID,
          action: .toolCall(
            id: call.id, name: call.name,
            action: .appendArguments(arguments, tokenCount: arguments.isEmpty ? 0 : 1))))
    }
    calls[index] = call
  }

  private mutating func finish(
    with reason: ChatCompletionChunk.FinishReason, into events: inout [Event]
  ) throws {
    finishReasons.append(reason)
    switch reason {
    case .contentFilter:
      throw LanguageModelError.guardrailViolation(
        .init(
          debugDescription: "the server stopped the response with finish_reason content_filter",
          metadata: [Self.finishReasonKey: reason.rawValue]))
    case .length:
      events.append(
        .response(entryID: responseEntryID, action: .updateMetadata([Self.finishReasonKey: reason.rawValue])))
    default:
      break
    }
  }

  /// Records that a call uses `id`; an id that an earlier call used is malformed.
  private mutating func claim(_ id: String, index: Int) throws {
    guard usedCallIDs.insert(id).inserted else {
      throw ChatCompletionsError(
        kind: .malformedResponse,
        message: "the server sent tool call id \(Self.quoted(id)) for a second call (at index \(index))")
    }
  }

  /// Throws when a call ends without a name: its arguments cannot be given to any tool.
  private static func checkNamed(_ call: CallState) throws {
    guard call.name.isEmpty else { return }
    throw ChatCompletionsError(
      kind: .malformedResponse,
      message: "the server sent tool call \(quoted(call.id)) at index \(call.index) without a function name"
        + (call.pendingArguments.isEmpty ? "" : " (\(call.pendingArguments.utf8.count) bytes of arguments)"))
  }

  /// An id or a name as it appears in a message: quoted. It is not cut here:
  /// ``ErrorBoundary`` redacts the whole message first, then cuts it.
  private static func quoted(_ text: String) -> String {
    "\"" + text + "\""
  }

  /// Starts a call the server sent without an id, with an id of its own:
  /// unique within the session (it includes part of the tool-calls entry id
  /// and a sequence number), the same for every fragment of the call.
  private mutating func startSynthesizedCall(index: Int) throws -> CallState {
    synthesizedCallCount += 1
    let id = "call_\(toolCallsEntryID.prefix(8))_\(index)_\(synthesizedCallCount)"
    try claim(id, index: index)
    return CallState(id: id, index: index, isIDSynthesized: true)
  }
}
