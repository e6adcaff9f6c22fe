import Foundation
import ModelSession
import Synchronization

/// A language model that plays back a script: one step per generation.
///
/// Every behaviour of a session can be driven end to end with it: text and
/// tool calls streamed in pieces, errors, stalls that wait for cancellation,
/// and checks of what the session sent.
///
/// ```swift
/// let script = ModelScript([.text("Hello"), .toolCall(name: "weather", arguments: #"{"city":"Oslo"}"#)])
/// let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
/// ```
public struct ScriptedLanguageModel: LanguageModel {
  /// The executor that plays the script.
  public struct Executor: LanguageModelExecutor {
    /// Identifies the script (and so the executor).
    public struct Configuration: Hashable, Sendable {
      /// The script (compared by identity).
      public var script: ModelScript
      /// An extra value, so tests can ask for distinct executors.
      public var variant: String
    }

    /// The model type.
    public typealias Model = ScriptedLanguageModel

    /// Creates the executor and counts it in the script.
    public init(configuration: Configuration) throws {
      configuration.script.recordExecutorCreated()
    }

    /// Plays the script's next step.
    public func respond(
      to request: LanguageModelExecutorGenerationRequest, model: ScriptedLanguageModel,
      streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
      let step = try model.script.nextStep(for: request)
      try await step.run(request, channel)
    }

    /// Counts the call in the script.
    public func prewarm(model: ScriptedLanguageModel, transcript: Transcript) {
      model.script.recordPrewarm(transcript)
    }
  }

  /// The script played.
  public let script: ModelScript
  /// The capabilities declared.
  public var capabilities: LanguageModelCapabilities
  /// Part of the executor configuration.
  public var variant: String
  /// The window the model reports as its `contextSize`; `nil` for a model
  /// that cannot say (its `contextSize` throws).
  public var declaredContextSize: Int?

  /// Creates a model that plays `script`.
  public init(
    script: ModelScript,
    capabilities: LanguageModelCapabilities = [.toolCalling, .guidedGeneration, .vision, .reasoning],
    variant: String = "", contextSize: Int? = nil
  ) {
    self.script = script
    self.capabilities = capabilities
    self.variant = variant
    self.declaredContextSize = contextSize
  }

  /// The script's identity and the variant.
  public var executorConfiguration: Executor.Configuration {
    Executor.Configuration(script: script, variant: variant)
  }
}

extension ScriptedLanguageModel: ContextSizeProviding {
  /// The declared window.
  ///
  /// - Throws: ``UnknownContextSizeError`` when none was declared.
  public var contextSize: Int {
    get throws {
      guard let declaredContextSize else { throw UnknownContextSizeError() }
      return declaredContextSize
    }
  }
}

/// Raised by a scripted model asked for a window it was not given.
public struct UnknownContextSizeError: Error, Equatable, CustomStringConvertible {
  /// Creates the error.
  public init() {}

  /// Says so.
  public var description: String { "the scripted model was given no context size" }
}

/// Raised by a script that has no step left.
public struct ScriptExhaustedError: Error, Equatable, CustomStringConvertible {
  /// How many generations the script had.
  public var stepCount: Int

  /// Says so.
  public var description: String { "the script has \(stepCount) steps and a generation asked for one more" }
}
