import Foundation
import ModelSession

/// A language model that plays back a ``ReplayConversation``, offline and
/// deterministically: each generation streams the next recorded reasoning,
/// tool calls or answer, in the order a live model would send them.
///
/// The model keeps its place in the conversation, so use one model per run.
/// It checks that each turn's first request ends with the prompt it expects,
/// and throws ``ReplayError`` when the session and the recording disagree.
/// Tool-call ids are derived from the position in the conversation
/// (`call_<turn>_<generation>_<index>`), so two runs send identical prompts.
///
/// It reports output usage only: it has no prompt cache, so the prompt
/// tokens and cached tokens a server would report are left at zero, and a
/// cache analysis of its records is the prediction alone.
///
/// Given a window (``contextSize``), it refuses a request whose prompt and
/// reserved answer do not fit, as a server does: with
/// `LanguageModelError.contextSizeExceeded`, the window and the prompt's
/// size (`EstimatingTokenCounter`'s estimate of the whole request), without
/// moving on in the conversation.
///
/// ```swift
/// let model = ReplayLanguageModel(conversation: conversation)
/// let session = LanguageModelSession(model: model, profile: profile)
/// for turn in conversation.turns { try await session.respond(to: turn.prompt) }
/// ```
public struct ReplayLanguageModel: LanguageModel {
  /// The executor that streams the recorded generations.
  public struct Executor: LanguageModelExecutor {
    /// The cursor, compared by identity.
    public typealias Configuration = ReplayCursor
    /// The model type.
    public typealias Model = ReplayLanguageModel

    /// Creates the executor.
    public init(configuration: ReplayCursor) {}

    /// Streams the next recorded generation.
    public func respond(
      to request: LanguageModelExecutorGenerationRequest, model: ReplayLanguageModel,
      streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
      if let window = model.contextSize { try Self.checkFits(request, window: window) }
      let position = try model.cursor.advance(checking: request.transcript)
      for event in Self.events(for: position) { await channel.send(event) }
    }

    /// Throws the refusal a server with a window of `window` tokens gives
    /// `request` when its prompt and reserved answer are larger.
    static func checkFits(_ request: LanguageModelExecutorGenerationRequest, window: Int) throws {
      let prompt = EstimatingTokenCounter().tokenCount(of: request)
      let reserved = max(0, request.generationOptions.maximumResponseTokens ?? 0)
      guard prompt.addingSaturated(reserved) > window else { return }
      throw LanguageModelError.contextSizeExceeded(
        .init(
          contextSize: window, tokenCount: prompt,
          debugDescription:
            "replay model: maximum context length is \(window) tokens, the prompt has \(prompt)"
            + (reserved > 0 ? " and \(reserved) are reserved for the answer" : "")))
    }

    static func events(for position: ReplayCursor.Position) -> [LanguageModelExecutorGenerationChannel.Event]
    {
      let generation = position.generation
      let tag = "\(position.turnIndex)_\(position.generationIndex)"
      var events: [LanguageModelExecutorGenerationChannel.Event] = []
      var outputTokens = 0
      var reasoningTokens = 0
      if let reasoning = generation.reasoning {
        reasoningTokens = Self.estimate(reasoning)
        events.append(
          .reasoning(entryID: "reasoning_\(tag)", action: .appendText(reasoning, tokenCount: reasoningTokens))
        )
      }
      for (index, call) in generation.toolCalls.enumerated() {
        let arguments = GeneratedContent(
          kind: .structure(
            properties: [call.parameter: GeneratedContent(kind: .string(call.value))],
            orderedKeys: [call.parameter])
        ).jsonString
        let tokens = Self.estimate(arguments)
        outputTokens += tokens
        events.append(
          .toolCalls(
            entryID: "calls_\(tag)",
            action: .toolCall(
              id: "call_\(tag)_\(index)", name: call.tool,
              action: .appendArguments(arguments, tokenCount: tokens))))
      }
      if let text = generation.text {
        let tokens = Self.estimate(text)
        outputTokens += tokens
        events.append(.response(entryID: "response_\(tag)", action: .appendText(text, tokenCount: tokens)))
        events.append(
          .response(
            entryID: "response_\(tag)",
            action: .updateUsage(
              input: .init(totalTokenCount: 0),
              output: .init(
                totalTokenCount: outputTokens + reasoningTokens, reasoningTokenCount: reasoningTokens))))
      }
      return events
    }

    /// The text's token count, as `EstimatingTokenCounter` estimates it.
    static func estimate(_ text: String) -> Int {
      EstimatingTokenCounter().tokens(forByteCount: text.utf8.count)
    }
  }

  /// Where the model is in its conversation.
  public let cursor: ReplayCursor
  /// The window in tokens, prompt and reserved answer together: a larger
  /// request is refused; `nil`, the default, refuses nothing.
  public var contextSize: Int?
  /// Tool calling and reasoning.
  public var capabilities: LanguageModelCapabilities { [.toolCalling, .reasoning] }
  /// The cursor: each model gets its own executor.
  public var executorConfiguration: ReplayCursor { cursor }

  /// Creates a model that plays `conversation` from its first turn, with a
  /// window of `contextSize` tokens when one is given.
  public init(conversation: ReplayConversation, contextSize: Int? = nil) {
    cursor = ReplayCursor(conversation: conversation)
    self.contextSize = contextSize
  }
}
