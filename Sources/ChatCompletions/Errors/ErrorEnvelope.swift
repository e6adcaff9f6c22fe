import Foundation
import ModelSession

/// The error objects that OpenAI-compatible servers send, in a response body
/// or as an event of a stream.
///
/// Accepted shapes: `{"error": {"message", "type", "code", …}}` (OpenAI,
/// llama.cpp, most servers), `{"error": "text"}` (Ollama), and
/// `{"object": "error", "message", "type", "code"}` (vLLM). A numeric `code`
/// is kept as its decimal text; llama.cpp's `n_ctx` and `n_prompt_tokens`
/// are kept for context-size errors.
struct ErrorEnvelope: Decodable, Sendable, Hashable {
  var message: String
  var type: String?
  var code: String?
  var status: Int?
  var contextSize: Int?
  var tokenCount: Int?

  init(
    message: String, type: String? = nil, code: String? = nil, status: Int? = nil, contextSize: Int? = nil,
    tokenCount: Int? = nil
  ) {
    self.message = message
    self.type = type
    self.code = code
    self.status = status
    self.contextSize = contextSize
    self.tokenCount = tokenCount
  }

  private enum CodingKeys: String, CodingKey {
    case error, object, message, type, code
    case contextSize = "n_ctx"
    case tokenCount = "n_prompt_tokens"
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if let text = try? container.decode(String.self, forKey: .error) {
      self.init(message: text)
      return
    }
    let body: KeyedDecodingContainer<CodingKeys>
    if container.contains(.error) {
      body = try container.nestedContainer(keyedBy: CodingKeys.self, forKey: .error)
    } else if try container.decodeIfPresent(String.self, forKey: .object) == "error" {
      body = container
    } else {
      throw DecodingError.keyNotFound(
        CodingKeys.error, .init(codingPath: [], debugDescription: "not an error object"))
    }
    let code = Self.flexibleText(body, .code)
    self.init(
      message: (try? body.decodeIfPresent(String.self, forKey: .message)) ?? "no message",
      type: try? body.decodeIfPresent(String.self, forKey: .type),
      code: code,
      status: code.flatMap { Int($0) },
      // Counts from a server: outside 0 … 2^53 they are left out, as if not sent.
      contextSize: try? body.decodeCountIfPresent(forKey: .contextSize),
      tokenCount: try? body.decodeCountIfPresent(forKey: .tokenCount)
    )
  }

  /// Decodes the envelope in `data`, or returns `nil` when `data` is not one.
  static func decode(from data: Data) -> ErrorEnvelope? {
    try? JSONDecoder().decode(ErrorEnvelope.self, from: data)
  }

  private static func flexibleText(
    _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
  ) -> String? {
    if let text = try? container.decodeIfPresent(String.self, forKey: key) {
      return text
    }
    if let number = try? container.decodeIfPresent(Int.self, forKey: key) {
      return String(number)
    }
    return nil
  }
}
