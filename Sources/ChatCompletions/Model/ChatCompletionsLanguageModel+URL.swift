import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ChatCompletionsLanguageModel {
  /// Creates a model, in the companion package's spelling: `url` is the
  /// server's base URL, never the full `/chat/completions` path.
  ///
  /// ```swift
  /// let model = ChatCompletionsLanguageModel(
  ///   name: "qwen3-30b", url: URL(string: "http://localhost:8000/v1")!,
  ///   additionalHeaders: ["Authorization": "Bearer \(token)"])
  /// ```
  ///
  /// It keeps ContextKit's fixes: `additionalHeaders` are merged over the
  /// default headers one header at a time (setting `Authorization` keeps
  /// `Content-Type` and `User-Agent`), and `supportsGuidedGeneration`
  /// defaults to `false`, so a server that ignores `response_format` makes
  /// the session throw `unsupportedCapability` instead of returning free text.
  ///
  /// - Parameters:
  ///   - name: the model name the server knows, sent as `"model"`.
  ///   - url: the server's base URL (see `EndpointConfiguration` for the `/v1` rule).
  ///   - apiKey: sent as `Authorization: Bearer`; never shown in descriptions or errors.
  ///   - additionalHeaders: merged over the default headers, one header at a time.
  ///   - supportsGuidedGeneration: `true` only when the server enforces `response_format`.
  ///   - urlSessionConfiguration: when given, the requests go through `URLSession` with this
  ///     configuration (see ``urlSession``); otherwise through the platform's transport.
  ///   - timeout: the idle timeout in seconds.
  ///   - requestStyle: the server's spelling of `response_format` and the token limit.
  ///   - contextSize: the window, for a server that does not report it; `nil` learns it from the server.
  public init(
    name: String, url: URL, apiKey: String? = nil, additionalHeaders: [String: String] = [:],
    supportsGuidedGeneration: Bool = false, urlSessionConfiguration: URLSessionConfiguration? = nil,
    timeout: TimeInterval = 60, requestStyle: ChatCompletionsRequestStyle = .openAI,
    contextSize: Int? = nil
  ) {
    self.init(
      name: name, baseURL: url, apiKey: apiKey, additionalHeaders: additionalHeaders,
      supportsGuidedGeneration: supportsGuidedGeneration, timeout: timeout, requestStyle: requestStyle,
      contextSize: contextSize)
    urlSession = urlSessionConfiguration.map { URLSession(configuration: $0) }
  }

  /// The headers set over the defaults on every request (the companion
  /// package's name for `EndpointConfiguration.additionalHeaders`);
  /// credential values never show in descriptions.
  public var additionalHeaders: EndpointConfiguration.Headers {
    get { endpoint.additionalHeaders }
    set { endpoint.additionalHeaders = newValue }
  }

  /// The server's base URL (the companion package's name for `EndpointConfiguration.baseURL`).
  public var url: URL { endpoint.baseURL }
}
