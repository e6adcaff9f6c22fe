import Foundation
import ModelSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A language model served by any OpenAI-compatible chat completions endpoint:
/// llama.cpp's `llama-server`, llama-cpp-python, vLLM, Ollama or a hosted API.
///
/// ```swift
/// let model = ChatCompletionsLanguageModel(
///   name: "smollm2", baseURL: URL(string: "http://127.0.0.1:8080")!)
/// let session = LanguageModelSession(model: model, instructions: "Be brief.")
/// let answer = try await session.respond(to: "Hello!")
/// ```
///
/// The session keeps one executor per endpoint and credential, so every
/// model value that names the same server shares one HTTP client.
public struct ChatCompletionsLanguageModel: LanguageModel {
  /// The model name sent in every request (`"model"`).
  public var name: String
  /// The endpoint: base URL, API key and additional headers.
  public var endpoint: EndpointConfiguration
  /// Whether the server enforces a JSON schema given as `response_format`.
  /// Only then does the model declare `.guidedGeneration`.
  public var supportsGuidedGeneration: Bool
  /// How long a request may wait to connect, for the first byte, and between reads.
  public var timeouts: ChatCompletionsTimeouts
  /// How the request spells the parts that servers disagree on.
  public var requestStyle: ChatCompletionsRequestStyle
  /// A session whose configuration carries the requests through `URLSession`
  /// (its protocol classes, such as a `URLProtocol` that answers in tests,
  /// its proxies and settings), as in the companion package; `nil` (the
  /// default) for the platform's transport: libcurl on Linux, which waits
  /// without spinning a core, URLSession on Apple platforms. The requests go
  /// through a session made from its configuration, with ContextKit's own
  /// streaming delegate.
  public var urlSession: URLSession?
  /// The context window the app declares, in tokens; `nil` to learn it from
  /// the server (see ``contextSize``).
  public var declaredContextSize: Int?

  /// Creates a model.
  ///
  /// - Parameters:
  ///   - name: the model name the server knows.
  ///   - baseURL: the server's base URL (see `EndpointConfiguration` for the `/v1` rule).
  ///   - apiKey: sent as `Authorization: Bearer`; never shown in descriptions or errors.
  ///   - additionalHeaders: merged over the default headers, one header at a time.
  ///   - supportsGuidedGeneration: `true` only when the server enforces `response_format`.
  ///   - timeout: the first-byte and idle timeout in seconds (see `ChatCompletionsTimeouts.init(_:)`).
  ///   - requestStyle: the server's spelling of `response_format` and the token limit.
  ///   - contextSize: the window, for a server that does not report it
  ///     (llama-cpp-python, Ollama); `nil` learns it from the server.
  public init(
    name: String, baseURL: URL, apiKey: String? = nil, additionalHeaders: [String: String] = [:],
    supportsGuidedGeneration: Bool = false, timeout: TimeInterval = 60,
    requestStyle: ChatCompletionsRequestStyle = .openAI, contextSize: Int? = nil
  ) {
    self.declaredContextSize = contextSize.flatMap { $0 > 0 ? $0 : nil }
    self.name = name
    self.endpoint = EndpointConfiguration(
      baseURL: baseURL, apiKey: apiKey, additionalHeaders: additionalHeaders)
    self.supportsGuidedGeneration = supportsGuidedGeneration
    self.timeouts = ChatCompletionsTimeouts(timeout)
    self.requestStyle = requestStyle
  }

  /// The first-byte timeout; setting it sets the first-byte and idle
  /// timeouts (see `ChatCompletionsTimeouts.init(_:)`).
  public var timeout: TimeInterval {
    get { timeouts.firstByte }
    set { timeouts = ChatCompletionsTimeouts(newValue) }
  }

  /// `.toolCalling`, `.reasoning` and `.vision`, plus `.guidedGeneration`
  /// when ``supportsGuidedGeneration`` is `true`.
  public var capabilities: LanguageModelCapabilities {
    var capabilities: LanguageModelCapabilities = [.toolCalling, .reasoning, .vision]
    if supportsGuidedGeneration {
      capabilities.capabilities.insert(.guidedGeneration)
    }
    return capabilities
  }

  /// The endpoint and credential, and the timeouts of the shared client.
  public var executorConfiguration: ChatCompletionsExecutor.Configuration {
    ChatCompletionsExecutor.Configuration(endpoint: endpoint, timeouts: timeouts, urlSession: urlSession)
  }

  /// The builder that turns a generation request into this model's request body.
  package var requestBuilder: RequestBuilder {
    RequestBuilder(model: name, style: requestStyle)
  }
}

extension ChatCompletionsLanguageModel {
  /// The executor type.
  public typealias Executor = ChatCompletionsExecutor
}
