import Foundation
import ModelSession
import Synchronization

/// A summarizer model for tests: answers every request with a short summary
/// that names how many lines it summarized, or fails when told to.
struct FixedSummaryModel: LanguageModel {
  struct Failure: Error {}

  /// What the model does, shared by its copies.
  final class Behaviour: Sendable {
    private let state = Mutex((fails: false, calls: 0, prompts: [String]()))

    init(fails: Bool = false) {
      state.withLock { $0.fails = fails }
    }

    var fails: Bool {
      get { state.withLock { $0.fails } }
      set { state.withLock { $0.fails = newValue } }
    }

    var calls: Int { state.withLock { $0.calls } }
    var prompts: [String] { state.withLock { $0.prompts } }

    func answer(_ prompt: String) throws -> String {
      try state.withLock { state in
        state.calls += 1
        state.prompts.append(prompt)
        if state.fails { throw Failure() }
        return "Summary #\(state.calls) of \(prompt.utf8.count) bytes."
      }
    }
  }

  struct Executor: LanguageModelExecutor {
    typealias Model = FixedSummaryModel

    init(configuration: String) throws {}

    func respond(
      to request: LanguageModelExecutorGenerationRequest, model: FixedSummaryModel,
      streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
      guard case .prompt(let prompt) = request.transcript.last else { throw Failure() }
      let text = try model.behaviour.answer(prompt.segments.joinedText)
      await channel.send(.response(entryID: "summary", action: .appendText(text, tokenCount: 1)))
    }
  }

  let behaviour: Behaviour
  var capabilities: LanguageModelCapabilities { [.toolCalling] }
  var executorConfiguration: String { "fixed" }

  init(behaviour: Behaviour = Behaviour()) {
    self.behaviour = behaviour
  }
}
