import Foundation
import Synchronization

/// A conversation with a language model.
///
/// The session owns the transcript and the tool loop: it evaluates its profile
/// before every generation, runs the history modifiers, checks the model's
/// capabilities, streams the executor's events into transcript entries, runs
/// the tools the model calls, and asks again until the model answers.
///
/// A turn is atomic: when it fails or is cancelled, the transcript is exactly
/// what it was before.
///
/// ```swift
/// let session = LanguageModelSession(model: model, instructions: "You are terse.")
/// let answer = try await session.respond(to: "What is 2 + 2?")
/// print(answer.content)
/// ```
public final class LanguageModelSession: Sendable {
  struct State: Sendable {
    var transcript: Transcript
    /// Every entry of the conversation, when a modifier committed a history
    /// that left some out; `nil` while it equals `transcript`.
    var fullTranscript: Transcript?
    var isResponding = false
    var usage = GenerationUsage.zero
    var turnCount = 0
    var latestRecord: GenerationRecord?
    /// The latest context-size refusal the session recovered from (see ``ContextOverflowRecovery``).
    var contextOverflow: ContextOverflow?
    var recordSubscribers: [UUID: AsyncStream<GenerationRecord>.Continuation] = [:]
  }

  /// The model the session was created with; `nil` for a session created
  /// with ``init(profile:history:maximumToolRounds:)``, whose profile names
  /// the model. A model named by the profile (``DynamicProfile/model(_:)``)
  /// wins over this one.
  public let model: (any LanguageModel)?
  /// The profile evaluated before each generation.
  public let profile: any DynamicProfile
  /// The most rounds of tool calls in one turn before the turn fails.
  public let maximumToolRounds: Int

  let state: Mutex<State>
  let executors = ExecutorCache()

  /// Creates a session from a profile and an optional earlier history.
  ///
  /// `history` may start with an instructions entry; it is replaced by the
  /// profile's instructions before each generation.
  ///
  /// A model the profile names with ``DynamicProfile/model(_:)`` wins over
  /// `model`, which runs the generations whose profile names none.
  public convenience init(
    model: some LanguageModel, profile: some DynamicProfile, history: Transcript = Transcript(),
    maximumToolRounds: Int = 16
  ) {
    self.init(sessionModel: model, profile: profile, history: history, maximumToolRounds: maximumToolRounds)
  }

  /// Creates a session whose profile names the model, as the framework's
  /// sessions are made since its third beta:
  ///
  /// ```swift
  /// let session = LanguageModelSession(profile: Profile { Instructions("Be brief.") }.model(model))
  /// ```
  ///
  /// A turn whose profile names no model fails with
  /// ``SessionError/noModel``, and the transcript stays as it was.
  public convenience init(
    profile: some DynamicProfile, history: Transcript = Transcript(), maximumToolRounds: Int = 16
  ) {
    self.init(sessionModel: nil, profile: profile, history: history, maximumToolRounds: maximumToolRounds)
  }

  private init(
    sessionModel: (any LanguageModel)?, profile: some DynamicProfile, history: Transcript,
    maximumToolRounds: Int
  ) {
    self.model = sessionModel
    self.profile = profile
    self.maximumToolRounds = max(1, maximumToolRounds)
    state = Mutex(State(transcript: history))
  }

  /// Creates a session with tools and instructions.
  public convenience init(
    model: some LanguageModel, tools: [any Tool] = [], instructions: Instructions? = nil,
    maximumToolRounds: Int = 16
  ) {
    let profile = Profile(content: Self.content(tools: tools, instructions: instructions))
    var history = Transcript()
    if instructions != nil || !tools.isEmpty {
      history.append(
        .instructions(
          Transcript.Instructions(
            segments: instructions?.segments ?? [],
            toolDefinitions: tools.map { Transcript.ToolDefinition(tool: $0) })))
    }
    self.init(model: model, profile: profile, history: history, maximumToolRounds: maximumToolRounds)
  }

  /// Creates a session with tools and instructions given as a string.
  public convenience init(model: some LanguageModel, tools: [any Tool] = [], instructions: String) {
    self.init(model: model, tools: tools, instructions: Instructions(instructions))
  }

  /// Creates a session that continues `transcript`, whose instructions entry
  /// (if any) gives the instructions.
  public convenience init(model: some LanguageModel, tools: [any Tool] = [], transcript: Transcript) {
    var instructions: Instructions?
    if case .instructions(let entry) = transcript.first {
      instructions = Instructions(segments: entry.segments)
    }
    let profile = Profile(content: Self.content(tools: tools, instructions: instructions))
    self.init(model: model, profile: profile, history: transcript)
  }

  private static func content(tools: [any Tool], instructions: Instructions?) -> ProfileContent {
    var components: [ProfileContent.Component] = []
    if let instructions { components.append(.instructions(instructions)) }
    components.append(contentsOf: tools.map { .tool($0) })
    return ProfileContent(components: components)
  }

  /// The conversation so far, as the session keeps it: the instructions of
  /// the latest generation, then the prompts, tool calls, tool outputs,
  /// reasoning and responses.
  ///
  /// As in the framework, a history modifier's result can become the
  /// session's history: when a modifier commits what it returns
  /// (``ProfileModifierContext/commitHistory()``, as `summarizeHistory` does
  /// when it summarizes), the transcript holds that history from then on,
  /// followed by the rest of the turn. Modifiers that only shape what the
  /// model sees (a rolling window, `compactingHistory`) leave it whole. For
  /// every entry, whatever a modifier committed, read ``fullTranscript``.
  public var transcript: Transcript { state.withLock { $0.transcript } }

  /// Every entry of the conversation: the instructions of the latest
  /// generation, then every prompt (as the caller gave it), tool call, tool
  /// output, reasoning and response, including those a committing modifier
  /// replaced in ``transcript`` (a summary stands in for them there). It
  /// equals ``transcript`` until a modifier commits. For an app's
  /// conversation view, and for analyses that need the dropped entries; the
  /// generation records keep what each modifier stage produced.
  public var fullTranscript: Transcript { state.withLock { $0.fullTranscript ?? $0.transcript } }

  /// Whether a turn is running.
  public var isResponding: Bool { state.withLock { $0.isResponding } }

  /// The tokens used by every completed turn of the session.
  public var usage: GenerationUsage { state.withLock { $0.usage } }

  /// The record of the latest generation (see ``generationRecords``).
  public var latestGenerationRecord: GenerationRecord? { state.withLock { $0.latestRecord } }

  /// The records of the generations that follow, as they complete, fail or
  /// are cancelled. A generation has a record once its request is built: one
  /// that ends before (the profile or a history modifier throws, or the turn
  /// is cancelled while a modifier runs) has none. Each access makes a new
  /// stream; it ends when the session is released.
  public var generationRecords: AsyncStream<GenerationRecord> {
    let (stream, continuation) = AsyncStream<GenerationRecord>.makeStream()
    let id = UUID()
    state.withLock { $0.recordSubscribers[id] = continuation }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.recordSubscribers.removeValue(forKey: id) }
    }
    return stream
  }

  deinit {
    state.withLock { state in
      for continuation in state.recordSubscribers.values { continuation.finish() }
    }
  }

  func publish(_ record: GenerationRecord) {
    let subscribers = state.withLock { state in
      state.latestRecord = record
      return Array(state.recordSubscribers.values)
    }
    for subscriber in subscribers { subscriber.yield(record) }
  }

  /// Prepares the model for a request that starts with the current transcript
  /// (and `promptPrefix`, when given).
  ///
  /// When the session was created without a model, the profile is evaluated
  /// in a task of its own to find the model it names; a profile that names
  /// none, or throws, prewarms nothing.
  public func prewarm(promptPrefix: Prompt? = nil) {
    var transcript = self.transcript
    if let promptPrefix {
      transcript.append(.prompt(Transcript.Prompt(segments: promptPrefix.segments)))
    }
    if let model {
      prewarm(model: model, transcript: transcript)
      return
    }
    let profile = self.profile
    Task { [weak self] in
      var resolution = ProfileResolution()
      guard (try? await profile.resolve(into: &resolution)) != nil, let named = resolution.model else {
        return
      }
      self?.prewarm(model: named, transcript: transcript)
    }
  }

  private func prewarm<Model: LanguageModel>(model: Model, transcript: Transcript) {
    guard let executor = try? executors.executor(for: model) else { return }
    executor.prewarm(model: model, transcript: transcript)
  }
}
