import Foundation
import ModelSession
import Synchronization
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// What a streamed request through an in-memory transport gave: the chunks
/// before the failure, and the (public) failure.
struct ClientOutcome {
  var chunks: [ChatCompletionChunk] = []
  var error: (any Error)?

  var text: String { chunks.compactMap { $0.choices.first?.delta.content }.joined() }
  var chatError: ChatCompletionsError? { error as? ChatCompletionsError }
  var languageModelError: LanguageModelError? { error as? LanguageModelError }
}

/// Streams one request through `transport` and collects what came back.
func streamThrough(
  _ transport: any HTTPTransport, baseURL: String = "http://model.test/v1", apiKey: String? = "sk-client-key",
  redirectPolicy: RedirectPolicy = .sameOrigin
) async throws -> ClientOutcome {
  let endpoint = EndpointConfiguration(
    baseURL: try #require(URL(string: baseURL)), apiKey: apiKey, redirectPolicy: redirectPolicy)
  let client = ChatCompletionsClient(
    endpoint: endpoint, timeouts: ChatCompletionsTimeouts(10), transport: transport)
  var outcome = ClientOutcome()
  do {
    for try await chunk in try await client.streamChunks(requestBody: Data(#"{"stream":true}"#.utf8)) {
      outcome.chunks.append(chunk)
    }
  } catch {
    outcome.error = error
  }
  return outcome
}
