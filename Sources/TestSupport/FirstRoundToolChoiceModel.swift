import ModelSession
import Synchronization

/// A model that wraps another and, in the first round of each turn, offers
/// only the tool the test chose (``choose(_:)``); later rounds, after a tool's
/// output, see every tool. With `toolCallingMode: .required`, a server then
/// gets a named tool choice, which llama-cpp-python enforces with a grammar,
/// so a live test does not depend on which tool a small model would pick.
///
/// ```swift
/// let model = FirstRoundToolChoiceModel(ChatCompletionsLanguageModel(name: "smollm2", baseURL: url))
/// model.choose(Skills.activateToolName)
/// try await session.respond(to: "…", options: GenerationOptions(toolCallingMode: .required))
/// ```
public struct FirstRoundToolChoiceModel<Base: LanguageModel>: LanguageModel {
  /// Runs the wrapped model's executor with the first round's tools narrowed.
  public struct Executor: LanguageModelExecutor {
    /// The model type.
    public typealias Model = FirstRoundToolChoiceModel<Base>

    private let base: Base.Executor

    /// Creates the wrapped model's executor.
    public init(configuration: Base.Executor.Configuration) throws {
      base = try Base.Executor(configuration: configuration)
    }

    /// Narrows a turn's first request to the chosen tool, then runs the wrapped executor.
    public func respond(
      to request: LanguageModelExecutorGenerationRequest, model: Model,
      streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
      var request = request
      let isFirstRound: Bool = if case .toolOutput = request.transcript.last { false } else { true }
      if isFirstRound, let name = model.chosenToolName {
        request.enabledToolDefinitions = request.enabledToolDefinitions.filter { $0.name == name }
      }
      try await base.respond(to: request, model: model.base, streamingInto: channel)
    }
  }

  /// The wrapped model.
  public let base: Base
  private let choice = Choice()

  /// The tool a turn's first round offers alone; `nil` offers every tool.
  public var chosenToolName: String? { choice.toolName.withLock { $0 } }

  /// Makes the first round of the next turns offer only `toolName` (every
  /// tool when `nil`), in this model and every copy of it.
  public func choose(_ toolName: String?) {
    choice.toolName.withLock { $0 = toolName }
  }

  /// The wrapped model's capabilities.
  public var capabilities: LanguageModelCapabilities { base.capabilities }
  /// The wrapped model's executor configuration.
  public var executorConfiguration: Base.Executor.Configuration { base.executorConfiguration }

  /// Wraps `base`, with no tool chosen.
  public init(_ base: Base) {
    self.base = base
  }

  /// The chosen tool, shared by every copy of the model.
  private final class Choice: Sendable {
    let toolName = Mutex<String?>(nil)
  }
}

extension FirstRoundToolChoiceModel: ContextSizeProviding where Base: ContextSizeProviding {
  /// The wrapped model's window.
  public var contextSize: Int { get async throws { try await base.contextSize } }
}
