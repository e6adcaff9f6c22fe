import Foundation

/// What one server-sent event of a chat completion stream means.
enum ChatCompletionStreamItem: Sendable, Hashable {
  /// A `chat.completion.chunk`.
  case chunk(ChatCompletionChunk)
  /// The `[DONE]` sentinel: the stream is complete.
  case done
}

/// Turns the server-sent events of a chat completion stream into chunks, and
/// error events into ``ChatCompletionsFailure`` values.
struct ChunkDecoder: Sendable {
  var mapper: ErrorMapper
  private let decoder = JSONDecoder()

  init(mapper: ErrorMapper = ErrorMapper()) {
    self.mapper = mapper
  }

  /// Decodes one event; returns `nil` for an event with no JSON (keep-alives).
  ///
  /// Throws the mapped failure for an `{"error": …}` event (or an `event: error`),
  /// and a `malformedChunk` failure for data that is not a chunk.
  func decode(_ event: ServerSentEvent) throws(ChatCompletionsFailure) -> ChatCompletionStreamItem? {
    if event.isDone {
      return .done
    }
    let text = event.data
    if text.allSatisfy(\.isWhitespace) {
      return nil
    }
    let data = Data(text.utf8)
    if event.type == "error" {
      throw mapper.failure(streamEnvelope: ErrorEnvelope.decode(from: data) ?? ErrorEnvelope(message: text))
    }
    let chunk: ChatCompletionChunk
    do {
      chunk = try decoder.decode(ChatCompletionChunk.self, from: data)
    } catch {
      if let envelope = ErrorEnvelope.decode(from: data) {
        throw mapper.failure(streamEnvelope: envelope)
      }
      throw .other(
        ChatCompletionsError(
          kind: .malformedChunk,
          message: "not a chat completion chunk (\(mapper.serverField(Self.describe(error)))): "
            + mapper.redaction.excerpt(of: text, limit: 200)
        ))
    }
    // An error object decodes as a chunk with nothing in it: look closer only then.
    if chunk.choices.isEmpty, chunk.usage == nil, let envelope = ErrorEnvelope.decode(from: data) {
      throw mapper.failure(streamEnvelope: envelope)
    }
    return .chunk(chunk)
  }

  private static func describe(_ error: any Error) -> String {
    guard let decodingError = error as? DecodingError else { return "invalid JSON" }
    switch decodingError {
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
      .dataCorrupted(let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    @unknown default:
      return "invalid JSON"
    }
  }
}
