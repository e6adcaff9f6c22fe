import Foundation

/// The chunks of a streamed chat completion, read from a response body as it
/// arrives.
///
/// Iteration ends after `[DONE]`. It throws when the stream fails: an error
/// event, a malformed chunk, a transport error, or a body that ends before
/// the stream is complete (mid-event, or with neither `[DONE]` nor a
/// `finish_reason`), as `LanguageModelError` where one fits and
/// ``ChatCompletionsError`` otherwise. Cancelling the iterating task cancels
/// the request.
public struct ChatCompletionChunkStream: AsyncSequence, Sendable {
  /// Each element is one decoded chunk.
  public typealias Element = ChatCompletionChunk

  private let body: HTTPBody
  private let decoder: ChunkDecoder

  /// Creates a stream that decodes the chunks of an SSE body from any source,
  /// such as a recorded file.
  public init(body: AsyncThrowingStream<Data, any Error>) {
    self.init(body: HTTPBody(body), decoder: ChunkDecoder())
  }

  init(body: AsyncThrowingStream<Data, any Error>, decoder: ChunkDecoder) {
    self.init(body: HTTPBody(body), decoder: decoder)
  }

  init(body: HTTPBody, decoder: ChunkDecoder) {
    self.body = body
    self.decoder = decoder
  }

  /// Creates the iterator; a stream can be iterated once.
  public func makeAsyncIterator() -> Iterator {
    Iterator(bytes: body.makeAsyncIterator(), decoder: decoder)
  }

  /// Reads bytes, parses events and decodes chunks on demand.
  public struct Iterator: AsyncIteratorProtocol {
    private var bytes: HTTPBody.AsyncIterator
    private let decoder: ChunkDecoder
    private var parser = ServerSentEventParser()
    private var pending: [ServerSentEvent] = []
    private var pendingIndex = 0
    private var sawFinishReason = false
    private var sawAnyEvent = false
    private var finished = false

    init(bytes: HTTPBody.AsyncIterator, decoder: ChunkDecoder) {
      self.bytes = bytes
      self.decoder = decoder
    }

    /// The next chunk, or `nil` after `[DONE]`.
    public mutating func next() async throws -> ChatCompletionChunk? {
      do {
        return try await nextChunk()
      } catch {
        throw ErrorBoundary.publicError(for: error, mapper: decoder.mapper)
      }
    }

    private mutating func nextChunk() async throws -> ChatCompletionChunk? {
      while !finished {
        while pendingIndex < pending.count {
          let event = pending[pendingIndex]
          pendingIndex += 1
          let item: ChatCompletionStreamItem?
          do {
            item = try decoder.decode(event)
          } catch {
            finished = true
            throw error
          }
          switch item {
          case .done:
            finished = true
            return nil
          case .chunk(let chunk):
            if chunk.choices.contains(where: { $0.finishReason != nil }) {
              sawFinishReason = true
            }
            return chunk
          case nil:
            continue
          }
        }
        let data: Data?
        do {
          data = try await bytes.next()
        } catch {
          finished = true
          throw decoder.mapper.failure(transportError: error)
        }
        guard let data else {
          // The body stream ends early, without an error, when the iterating task is cancelled.
          if Task.isCancelled {
            finished = true
            throw CancellationError()
          }
          return try endOfBody()
        }
        pending = parser.parse(data)
        pendingIndex = 0
        sawAnyEvent = sawAnyEvent || !pending.isEmpty
      }
      return nil
    }

    private mutating func endOfBody() throws -> ChatCompletionChunk? {
      finished = true
      let cutOffMidEvent = parser.finish()
      guard cutOffMidEvent || !sawFinishReason else { return nil }
      let message =
        if cutOffMidEvent {
          "the stream ended in the middle of an event"
        } else if !sawAnyEvent {
          "the server answered 2xx and closed the stream without any event (llama-cpp-python does this when "
            + "the prompt exceeds the context window; its log says why)"
        } else {
          "the stream ended before [DONE] and before any finish_reason"
        }
      throw ChatCompletionsFailure.other(ChatCompletionsError(kind: .truncatedStream, message: message))
    }
  }
}
