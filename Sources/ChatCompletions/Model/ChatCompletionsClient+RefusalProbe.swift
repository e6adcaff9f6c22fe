import Foundation
import HTTPStreaming
import ModelSession

extension ChatCompletionsClient {
  /// The largest answer the probe reads when the server answers it after
  /// all (one token's completion is far smaller): 64 KiB.
  static let maximumProbeAnswerBytes = 64 << 10

  /// The context-size refusal a server gives for `probeBody` (see
  /// `RequestBuilder.refusalProbeBody(for:)`), asked after the streamed
  /// request ended with a 2xx head and no event at all; `nil` when the server
  /// answers it with anything else (a completion, another error, nothing).
  ///
  /// Only a refusal replaces the empty stream's error: it names the window
  /// and the prompt's size, which the session needs to compact and retry.
  /// Any other answer says nothing certain about why the stream was empty,
  /// so the caller keeps its `truncatedStream` error.
  func contextSizeRefusal(probeBody: Data) async -> LanguageModelError? {
    let request = endpoint.request(url: endpoint.chatCompletionsURL, body: probeBody, timeouts: timeouts)
    do {
      let response = try await http.send(request)
      // A one-token completion: read it (bounded) so the connection ends cleanly, and drop it.
      _ = await BoundedBodyReader.read(
        response.body, maximumBytes: Self.maximumProbeAnswerBytes, timeLimit: max(timeout, 10))
      return nil
    } catch let answer as HTTPErrorResponse {
      let failure = mapper.failure(status: answer.status, headers: answer.headers, body: answer.body)
      guard case .contextSizeExceeded(let contextSize, let tokenCount, var error) = failure else {
        return nil
      }
      error.message +=
        " (the streamed request got a 2xx answer without any event; this is the server's answer to the "
        + "same request not streamed, for one token)"
      let refusal = ChatCompletionsFailure.contextSizeExceeded(
        contextSize: contextSize, tokenCount: tokenCount, error)
      return ErrorBoundary.publicError(for: refusal, mapper: mapper) as? LanguageModelError
    } catch {
      return nil
    }
  }
}
