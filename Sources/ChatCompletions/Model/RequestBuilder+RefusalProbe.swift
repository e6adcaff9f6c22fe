import Foundation
import ModelSession

extension RequestBuilder {
  /// The body of the request that asks a server why it ended a streamed
  /// request without any event: the same request, not streamed, for one
  /// token.
  ///
  /// llama-cpp-python checks the prompt against its window only once the
  /// stream has started, so a streamed prompt at or past the window gets a
  /// 2xx head and an empty event stream; the same request not streamed gets
  /// the 400 that names the window and the prompt's size ("maximum context
  /// length is 2048 tokens. However, you requested 2532 tokens (2531 in the
  /// messages, 1 in the completion)"). Its check does not depend on the
  /// token limit, so one token is enough, and costs one token when the
  /// prompt fits after all.
  package func refusalProbeBody(for request: LanguageModelExecutorGenerationRequest) throws -> Data {
    var probe = request
    probe.generationOptions.maximumResponseTokens = 1
    return Data(try bodyContent(for: probe, streamed: false).jsonString.utf8)
  }
}
