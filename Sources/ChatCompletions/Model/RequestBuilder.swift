import Foundation
import ModelSession

/// Turns a generation request into a chat completions request body (pure).
///
/// The body is built as an ordered `GeneratedContent` and serialized with
/// `jsonString`, so the same request always gives the same bytes, and a
/// server's prompt cache can match the prefix.
///
/// ```swift
/// let builder = RequestBuilder(model: "smollm2")
/// let body: Data = try builder.body(for: request)
/// ```
///
/// Fields, in this order: `model`, `messages`, `tools` (only when there are
/// any), `tool_choice`, `response_format` (when a schema is requested),
/// `temperature`, `top_p`, `top_k`, `seed`, the token limit, `stream: true`
/// and `stream_options: {"include_usage": true}`.
package struct RequestBuilder: Sendable {
  /// The model name sent as `model`.
  package var model: String
  /// The server's spelling of `response_format` and the token limit.
  package var style: ChatCompletionsRequestStyle

  /// Creates a builder.
  package init(model: String, style: ChatCompletionsRequestStyle = .openAI) {
    self.model = model
    self.style = style
  }

  /// The request body as bytes.
  ///
  /// - Throws: `LanguageModelError.unsupportedTranscriptContent` for a
  ///   transcript entry that the protocol cannot carry (a custom segment).
  package func body(for request: LanguageModelExecutorGenerationRequest) throws -> Data {
    Data(try bodyContent(for: request).jsonString.utf8)
  }

  /// The request body as an ordered JSON value; `streamed: false` asks for
  /// one JSON answer (`"stream": false`, no `stream_options`).
  package func bodyContent(
    for request: LanguageModelExecutorGenerationRequest, streamed: Bool = true
  ) throws -> GeneratedContent {
    let options = request.generationOptions
    var body: [(String, GeneratedContent)] = [
      ("model", GeneratedContent(model)),
      (
        "messages",
        GeneratedContent(kind: .array(try messages(for: request.transcript).map(\.generatedContent)))
      ),
    ]
    let tools = request.enabledToolDefinitions
    if !tools.isEmpty {
      body.append(("tools", GeneratedContent(kind: .array(tools.map(Self.tool)))))
      if let choice = Self.toolChoice(options.toolCallingMode, tools: tools) {
        body.append(("tool_choice", choice))
      }
    }
    if let schema = request.schema {
      body.append(("response_format", responseFormat(schema)))
    }
    body += Self.sampling(options)
    if let limit = options.maximumResponseTokens {
      body.append((style.maximumTokensField.rawValue, GeneratedContent(limit)))
    }
    body.append(("stream", GeneratedContent(streamed)))
    if streamed {
      body.append(
        ("stream_options", GeneratedContent(orderedProperties: [("include_usage", GeneratedContent(true))])))
    }
    return GeneratedContent(orderedProperties: body)
  }

  /// `{"type": "function", "function": {"name", "description", "parameters"}}`.
  static func tool(_ definition: Transcript.ToolDefinition) -> GeneratedContent {
    GeneratedContent(orderedProperties: [
      ("type", GeneratedContent("function")),
      (
        "function",
        GeneratedContent(orderedProperties: [
          ("name", GeneratedContent(definition.name)),
          ("description", GeneratedContent(definition.description)),
          ("parameters", definition.parameters.jsonSchema),
        ])
      ),
    ])
  }

  /// `tool_choice` for a tool calling mode: `.allowed` → `"auto"`,
  /// `.disallowed` → `"none"`, `.required` → the one tool by name when there
  /// is exactly one (servers such as llama-cpp-python enforce only a named
  /// choice), else `"required"`. No mode, no field.
  ///
  /// The request's mode is sent as it is: the session asks for `.required`
  /// in the first round of a turn only (see `GenerationOptions.toolCallingMode`).
  static func toolChoice(
    _ mode: GenerationOptions.ToolCallingMode?, tools: [Transcript.ToolDefinition]
  ) -> GeneratedContent? {
    switch mode {
    case nil: return nil
    case .allowed: return GeneratedContent("auto")
    case .disallowed: return GeneratedContent("none")
    case .required:
      guard tools.count == 1, let tool = tools.first else { return GeneratedContent("required") }
      return GeneratedContent(orderedProperties: [
        ("type", GeneratedContent("function")),
        ("function", GeneratedContent(orderedProperties: [("name", GeneratedContent(tool.name))])),
      ])
    }
  }

  /// `response_format` for a schema, in the style's spelling.
  func responseFormat(_ schema: GenerationSchema) -> GeneratedContent {
    switch style.responseFormat {
    case .jsonSchema:
      GeneratedContent(orderedProperties: [
        ("type", GeneratedContent("json_schema")),
        (
          "json_schema",
          GeneratedContent(orderedProperties: [
            ("name", GeneratedContent(Self.schemaName(schema.name))),
            ("strict", GeneratedContent(true)),
            ("schema", schema.jsonSchema),
          ])
        ),
      ])
    case .jsonObjectWithSchema:
      GeneratedContent(orderedProperties: [
        ("type", GeneratedContent("json_object")),
        ("schema", schema.jsonSchema),
      ])
    }
  }

  /// A schema name as OpenAI accepts it: letters, digits, `_` and `-`, at
  /// most 64 characters; other characters become `_`.
  static func schemaName(_ name: String) -> String {
    let allowed = name.unicodeScalars.map { scalar in
      scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || scalar == "-")
        ? Character(scalar) : "_"
    }
    let cleaned = String(allowed.prefix(64))
    return cleaned.isEmpty ? "response" : cleaned
  }

  /// The sampling fields: greedy → `temperature: 0`; top-k → `top_k`;
  /// probability threshold → `top_p`; the seed (modulo 2^53, the range of a
  /// JSON number that every parser reads exactly) as `seed`. An explicit
  /// `temperature` applies unless sampling is greedy.
  static func sampling(_ options: GenerationOptions) -> [(String, GeneratedContent)] {
    var fields: [(String, GeneratedContent)] = []
    var seed: UInt64?
    switch options.samplingMode?.kind {
    case .greedy:
      fields.append(("temperature", GeneratedContent(0)))
    case .randomTopK(let k, let chosenSeed):
      if let temperature = options.temperature {
        fields.append(("temperature", GeneratedContent(temperature)))
      }
      fields.append(("top_k", GeneratedContent(k)))
      seed = chosenSeed
    case .randomProbabilityThreshold(let p, let chosenSeed):
      if let temperature = options.temperature {
        fields.append(("temperature", GeneratedContent(temperature)))
      }
      fields.append(("top_p", GeneratedContent(p)))
      seed = chosenSeed
    case nil:
      if let temperature = options.temperature {
        fields.append(("temperature", GeneratedContent(temperature)))
      }
    }
    if let seed {
      fields.append(("seed", GeneratedContent(kind: .number(Double(seed & ((1 << 53) - 1))))))
    }
    return fields
  }
}
