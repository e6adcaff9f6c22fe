import Foundation
import ModelSession
import Testing

// The provider of docs/writing-a-provider.md, compiled and run here so the guide stays true.

struct EchoModel: LanguageModel {
  var name: String

  var capabilities: LanguageModelCapabilities { [.toolCalling] }
  var executorConfiguration: EchoExecutor.Configuration { .init(name: name) }
}

struct EchoExecutor: LanguageModelExecutor {
  struct Configuration: Hashable, Sendable { var name: String }
  typealias Model = EchoModel

  init(configuration: Configuration) throws {}

  func respond(
    to request: LanguageModelExecutorGenerationRequest, model: EchoModel,
    streamingInto channel: LanguageModelExecutorGenerationChannel
  ) async throws {
    let responseID = UUID().uuidString
    guard case .prompt(let prompt) = request.transcript.last else { return }
    for word in prompt.segments.joinedText.split(separator: " ") {
      try Task.checkCancellation()
      await channel.send(
        .response(entryID: responseID, action: .appendText(String(word) + " ", tokenCount: 1)))
    }
  }
}

extension EchoModel { typealias Executor = EchoExecutor }

@Suite(.timeLimit(.minutes(10))) struct ProviderExampleTests {
  @Test(.timeLimit(.minutes(10))) func `the provider guide's example works through a session`() async throws {
    let session = LanguageModelSession(model: EchoModel(name: "echo"))
    let response = try await session.respond(to: "hello there")
    #expect(response.content == "hello there ")
    #expect(response.usage.output.totalTokenCount == 2)
  }
}
