/// How a request spells the parts of the protocol that servers disagree on.
///
/// ```swift
/// // llama-cpp-python: json_object with a schema, and max_tokens.
/// let model = ChatCompletionsLanguageModel(
///   name: "smollm2", baseURL: url, supportsGuidedGeneration: true, requestStyle: .llamaCppPython)
/// ```
public struct ChatCompletionsRequestStyle: Sendable, Hashable {
  /// How a requested schema is sent as `response_format`.
  public enum ResponseFormat: Sendable, Hashable {
    /// `{"type": "json_schema", "json_schema": {"name", "strict": true, "schema"}}`:
    /// OpenAI, llama.cpp's `llama-server`, vLLM, Ollama.
    case jsonSchema
    /// `{"type": "json_object", "schema": …}`: llama-cpp-python, which
    /// rejects `json_schema` but enforces this form with a grammar.
    case jsonObjectWithSchema
  }

  /// Which field carries the response token limit.
  public enum MaximumTokensField: String, Sendable, Hashable {
    /// `max_completion_tokens` (OpenAI's current name; llama.cpp, vLLM).
    case maxCompletionTokens = "max_completion_tokens"
    /// `max_tokens` (the older name; llama-cpp-python knows only this one).
    case maxTokens = "max_tokens"
  }

  /// How a requested schema is sent.
  public var responseFormat: ResponseFormat
  /// Which field carries `maximumResponseTokens`.
  public var maximumTokensField: MaximumTokensField

  /// Creates a style.
  public init(
    responseFormat: ResponseFormat = .jsonSchema,
    maximumTokensField: MaximumTokensField = .maxCompletionTokens
  ) {
    self.responseFormat = responseFormat
    self.maximumTokensField = maximumTokensField
  }

  /// The OpenAI spelling: strict `json_schema` and `max_completion_tokens`.
  public static let openAI = ChatCompletionsRequestStyle()

  /// llama-cpp-python's spelling: `json_object` with a `schema`, and `max_tokens`.
  public static let llamaCppPython = ChatCompletionsRequestStyle(
    responseFormat: .jsonObjectWithSchema, maximumTokensField: .maxTokens)
}
