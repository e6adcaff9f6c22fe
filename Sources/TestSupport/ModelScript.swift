import Foundation
import ModelSession
import Synchronization

/// The steps a `ScriptedLanguageModel` plays, one per generation, and what it
/// was sent.
public final class ModelScript: Sendable {
  private struct State {
    var steps: [ScriptStep]
    var next = 0
    var requests: [LanguageModelExecutorGenerationRequest] = []
    var prewarmedTranscripts: [Transcript] = []
    var executorsCreated = 0
  }

  private let state: Mutex<State>

  /// Creates a script.
  public init(_ steps: [ScriptStep] = []) {
    state = Mutex(State(steps: steps))
  }

  /// Adds steps at the end.
  public func append(_ steps: ScriptStep...) {
    state.withLock { $0.steps.append(contentsOf: steps) }
  }

  /// The requests received, in order.
  public var requests: [LanguageModelExecutorGenerationRequest] { state.withLock { $0.requests } }

  /// The number of steps played.
  public var playedCount: Int { state.withLock { $0.next } }

  /// The transcripts the executor was asked to prewarm with.
  public var prewarmedTranscripts: [Transcript] { state.withLock { $0.prewarmedTranscripts } }

  func nextStep(for request: LanguageModelExecutorGenerationRequest) throws -> ScriptStep {
    try state.withLock { state in
      state.requests.append(request)
      guard state.next < state.steps.count else { throw ScriptExhaustedError(stepCount: state.steps.count) }
      defer { state.next += 1 }
      return state.steps[state.next]
    }
  }

  func recordPrewarm(_ transcript: Transcript) {
    state.withLock { $0.prewarmedTranscripts.append(transcript) }
  }

  func recordExecutorCreated() {
    state.withLock { $0.executorsCreated += 1 }
  }

  /// The number of executors created for this script.
  public var executorsCreated: Int { state.withLock { $0.executorsCreated } }
}

extension ModelScript: Hashable {
  /// Scripts are equal when they are the same object.
  public static func == (lhs: ModelScript, rhs: ModelScript) -> Bool { lhs === rhs }

  /// Hashes the object's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}

/// One generation of a script.
public struct ScriptStep: Sendable {
  /// Runs the generation: sends events, throws, or waits.
  public let run:
    @Sendable (LanguageModelExecutorGenerationRequest, LanguageModelExecutorGenerationChannel) async throws ->
      Void

  /// A step that runs arbitrary code.
  public init(
    _ run:
      @escaping @Sendable (LanguageModelExecutorGenerationRequest, LanguageModelExecutorGenerationChannel)
      async throws -> Void
  ) {
    self.run = run
  }

  /// Sends these events in order.
  public static func events(_ events: [LanguageModelExecutorGenerationChannel.Event]) -> ScriptStep {
    ScriptStep { _, channel in
      for event in events { await channel.send(event) }
    }
  }

  /// Streams `text` as a response, in pieces of `pieceLength` characters, with usage.
  public static func text(_ text: String, pieceLength: Int = 4, inputTokens: Int = 10) -> ScriptStep {
    let entryID = UUID().uuidString
    var events: [LanguageModelExecutorGenerationChannel.Event] = []
    var rest = Substring(text)
    while !rest.isEmpty {
      let piece = rest.prefix(max(1, pieceLength))
      rest = rest.dropFirst(piece.count)
      events.append(.response(entryID: entryID, action: .appendText(String(piece), tokenCount: 1)))
    }
    events.append(
      .response(
        entryID: entryID,
        action: .updateUsage(
          input: .init(totalTokenCount: inputTokens), output: .init(totalTokenCount: events.count))))
    return .events(events)
  }

  /// Calls tools: each `(name, arguments JSON)` pair becomes one call, its
  /// arguments streamed in two pieces.
  public static func toolCalls(_ calls: [(name: String, arguments: String)]) -> ScriptStep {
    let entryID = UUID().uuidString
    var events: [LanguageModelExecutorGenerationChannel.Event] = []
    for (index, call) in calls.enumerated() {
      let callID = "call-\(index)-\(UUID().uuidString.prefix(8))"
      let middle = call.arguments.index(call.arguments.startIndex, offsetBy: call.arguments.count / 2)
      for piece in ["", String(call.arguments[..<middle]), String(call.arguments[middle...])] {
        events.append(
          .toolCalls(
            entryID: entryID,
            action: .toolCall(id: callID, name: call.name, action: .appendArguments(piece, tokenCount: 1))))
      }
    }
    return .events(events)
  }

  /// Calls one tool.
  public static func toolCall(name: String, arguments: String) -> ScriptStep {
    toolCalls([(name: name, arguments: arguments)])
  }

  /// Throws `error`, after sending `eventsFirst`.
  public static func failure(
    _ error: any Error, after eventsFirst: [LanguageModelExecutorGenerationChannel.Event] = []
  ) -> ScriptStep {
    ScriptStep { _, channel in
      for event in eventsFirst { await channel.send(event) }
      throw error
    }
  }

  /// Sends `eventsFirst`, fires `signal` (when given), then waits until the
  /// task is cancelled: ten minutes at most, a test's time limit (then it
  /// throws ``CancellationWait/Timeout``).
  public static func stall(
    after eventsFirst: [LanguageModelExecutorGenerationChannel.Event] = [],
    signalling signal: TestSignal? = nil
  ) -> ScriptStep {
    ScriptStep { _, channel in
      for event in eventsFirst { await channel.send(event) }
      signal?.fire()
      try await CancellationWait.untilCancelled(upTo: .seconds(600))
    }
  }

  /// Checks the request with `inspect` (which may throw), then runs `then`.
  public static func inspecting(
    _ inspect: @escaping @Sendable (LanguageModelExecutorGenerationRequest) throws -> Void,
    then step: ScriptStep
  ) -> ScriptStep {
    ScriptStep { request, channel in
      try inspect(request)
      try await step.run(request, channel)
    }
  }
}
