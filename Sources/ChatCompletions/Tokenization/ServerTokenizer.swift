import Foundation

/// A server endpoint that turns text into the model's tokens.
public enum TokenizeEndpoint: String, Sendable, Hashable, CaseIterable {
  /// llama.cpp's `llama-server`: `POST /tokenize` with `{"content": text}`.
  case llamaCpp = "/tokenize"
  /// llama-cpp-python's server: `POST /extras/tokenize` with `{"input": text, "model": name}`.
  case llamaCppPython = "/extras/tokenize"
}

/// The tokens of a text, and the endpoint that produced them.
public struct ServerTokenization: Sendable, Hashable {
  /// The token ids.
  public var tokens: [Int]

  /// The endpoint that answered.
  public var endpoint: TokenizeEndpoint

  /// Creates a tokenization.
  public init(tokens: [Int], endpoint: TokenizeEndpoint) {
    self.tokens = tokens
    self.endpoint = endpoint
  }
}

/// Asks a model server for exact token counts through its tokenize endpoint.
///
/// The first call tries each ``TokenizeEndpoint`` in turn (at the server's
/// root, see `EndpointConfiguration.serverRootURL`) and remembers the one
/// that answers; when none does, it remembers that too and returns `nil`, so
/// that a token counter can fall back to an estimate without asking again.
///
/// ```swift
/// let tokenizer = ServerTokenizer(client: client, model: "smollm2")
/// if let result = try await tokenizer.tokenize("Hello there") {
///   print(result.tokens.count, result.endpoint)
/// }
/// ```
public actor ServerTokenizer {
  private enum Detection {
    case unknown
    case found(TokenizeEndpoint)
    case none
  }

  private let client: ChatCompletionsClient
  private let model: String
  private var detection = Detection.unknown

  /// The client's error mapper, for the public errors of callers.
  nonisolated var mapper: ErrorMapper { client.mapper }

  /// Creates a tokenizer that uses `client`'s endpoint and transport; `model`
  /// is sent to endpoints that need a model name.
  public init(client: ChatCompletionsClient, model: String) {
    self.client = client
    self.model = model
  }

  /// The endpoint that answered, once one has; `nil` before the first call and when none exists.
  public var detectedEndpoint: TokenizeEndpoint? {
    if case .found(let endpoint) = detection { endpoint } else { nil }
  }

  /// The tokens of `text`, or `nil` when the server has no tokenize endpoint.
  ///
  /// - Throws: `LanguageModelError` or ``ChatCompletionsError`` when the
  ///   server is unreachable or fails; `CancellationError` when cancelled.
  public func tokenize(_ text: String) async throws -> ServerTokenization? {
    do {
      return try await detectAndTokenize(text)
    } catch {
      throw ErrorBoundary.publicError(for: error, mapper: client.mapper)
    }
  }

  private func detectAndTokenize(_ text: String) async throws -> ServerTokenization? {
    switch detection {
    case .none:
      return nil
    case .found(let endpoint):
      guard let tokens = try await tokens(of: text, at: endpoint) else {
        throw ChatCompletionsFailure.other(
          ChatCompletionsError(kind: .invalidResponse, message: "\(endpoint.rawValue) stopped answering"))
      }
      return ServerTokenization(tokens: tokens, endpoint: endpoint)
    case .unknown:
      for endpoint in TokenizeEndpoint.allCases {
        if let tokens = try await tokens(of: text, at: endpoint) {
          detection = .found(endpoint)
          return ServerTokenization(tokens: tokens, endpoint: endpoint)
        }
      }
      detection = .none
      return nil
    }
  }

  /// The tokens from one endpoint, or `nil` when the server does not offer it:
  /// a 4xx answer (other than 408 and 429, which are thrown), 501, or not the expected JSON.
  private func tokens(of text: String, at endpoint: TokenizeEndpoint) async throws -> [Int]? {
    let body: [String: String] =
      switch endpoint {
      case .llamaCpp: ["content": text]
      case .llamaCppPython: ["input": text, "model": model]
      }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let url = client.endpoint.serverRootURL.appendingPathComponent(String(endpoint.rawValue.dropFirst()))
    let request = client.endpoint.request(
      url: url, body: try encoder.encode(body), timeouts: client.timeouts, accept: "application/json")
    let response: StreamingHTTPResponse
    do {
      response = try await client.send(request)
    } catch ChatCompletionsFailure.other(let error) where Self.meansUnavailable(error.status) {
      return nil
    }
    let answer = await BoundedBodyReader.read(
      response.body, maximumBytes: Self.answerLimit(forTextBytes: text.utf8.count),
      timeLimit: max(client.timeout, 10))
    try Task.checkCancellation()
    if let note = answer.stopNote {
      throw ChatCompletionsFailure.other(
        ChatCompletionsError(
          kind: .limitExceeded,
          message: client.mapper.redaction.apply(
            to:
              "the tokenizer's answer at \(client.mapper.redaction.describe(url)) was not read whole: \(note)"
          )))
    }
    return TokenListReader.tokens(in: answer.data)
  }

  /// The largest tokenizer answer read: 64 MiB (a token list of several million tokens).
  static let maximumAnswerBytes = 64 << 20

  /// The largest answer read for a text of `bytes` UTF-8 bytes: a tokenizer
  /// gives at most one token per byte (byte-level fallback) and a few
  /// special ones, each at most 18 bytes written (`9007199254740992, `),
  /// plus 64 KiB of slack; never more than ``maximumAnswerBytes``. A server
  /// that answers a short text with megabytes is stopped at this bound.
  static func answerLimit(forTextBytes bytes: Int) -> Int {
    min(maximumAnswerBytes, 18 * (bytes + 16) + (64 << 10))
  }

  /// Whether an `.other` failure's status says the endpoint does not exist: a
  /// 4xx or 501. A 408 or 429 never gets here: the error mapper makes them
  /// `.timeout` and `.rateLimited`, which are thrown.
  private static func meansUnavailable(_ status: Int?) -> Bool {
    guard let status else { return false }
    return (400..<500).contains(status) || status == 501
  }

}
