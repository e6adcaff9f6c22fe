import Foundation

/// Asks a model server for its context window: llama.cpp's `GET /props`
/// (`default_generation_settings.n_ctx`, or a top-level `n_ctx`), then the
/// OpenAI-style `GET /v1/models`, whose entries vLLM gives a `max_model_len`.
///
/// llama-cpp-python's server answers neither with a window (it has no
/// `/props`, and its model list carries no length); Ollama's model list has
/// none either. For those the window comes from the first context-length
/// error, or from the app.
struct ContextSizeDiscovery {
  var client: ChatCompletionsClient
  var model: String

  /// The largest answer read: 4 MiB (a model list of thousands of entries).
  static let maximumAnswerBytes = 4 << 20

  /// The window and its source, or `nil` with the reason when the server does not say it.
  func discover() async throws -> Result<LearnedContextSize, NotReported> {
    if let size = try await answer(at: client.endpoint.serverRootURL.appendingPathComponent("props"))
      .flatMap(Self.propertiesContextSize)
    {
      return .success(LearnedContextSize(size: size, source: .serverProperties))
    }
    if let size = try await answer(at: client.endpoint.endpointURL("models"))
      .flatMap({ Self.modelListContextSize($0, model: model) })
    {
      return .success(LearnedContextSize(size: size, source: .modelList))
    }
    return .failure(
      NotReported(
        reason: "the server at \(client.endpoint.redactedBaseURL) reports no context size "
          + "(no n_ctx at /props, no max_model_len for \(model) at /v1/models)"))
  }

  /// Why the window is not known.
  struct NotReported: Error, Sendable {
    var reason: String
  }

  /// The JSON object at `url`, or `nil` when the server has no such endpoint
  /// (a 4xx or 501) or answers with something else.
  private func answer(at url: URL) async throws -> [String: Any]? {
    let request = client.endpoint.request(
      url: url, method: "GET", timeouts: client.timeouts, accept: "application/json")
    let response: StreamingHTTPResponse
    do {
      response = try await client.send(request)
    } catch ChatCompletionsFailure.other(let error) where Self.meansUnavailable(error.status) {
      return nil
    }
    let body = await BoundedBodyReader.read(
      response.body, maximumBytes: Self.maximumAnswerBytes, timeLimit: max(client.timeout, 10))
    try Task.checkCancellation()
    guard body.stopNote == nil else { return nil }
    return (try? JSONSerialization.jsonObject(with: body.data)) as? [String: Any]
  }

  /// llama.cpp's `/props`: `default_generation_settings.n_ctx`, else `n_ctx`.
  static func propertiesContextSize(_ properties: [String: Any]) -> Int? {
    let settings = properties["default_generation_settings"] as? [String: Any]
    return positive(settings?["n_ctx"]) ?? positive(properties["n_ctx"])
  }

  /// An OpenAI-style model list: the `max_model_len` of the entry whose `id`
  /// is `model`, else of the only entry.
  static func modelListContextSize(_ list: [String: Any], model: String) -> Int? {
    guard let entries = list["data"] as? [[String: Any]] else { return nil }
    let named = entries.first { $0["id"] as? String == model } ?? (entries.count == 1 ? entries.first : nil)
    return positive(named?["max_model_len"])
  }

  /// A whole number from 1 to `Int32.max` (no window is larger), else `nil`.
  private static func positive(_ value: Any?) -> Int? {
    guard let number = value as? NSNumber else { return nil }
    let double = number.doubleValue
    guard double >= 1, double <= Double(Int32.max), double.rounded() == double else { return nil }
    return Int(double)
  }

  private static func meansUnavailable(_ status: Int?) -> Bool {
    guard let status else { return false }
    return (400..<500).contains(status) || status == 501
  }
}
