import Foundation

/// The chunks of a streamed chat completion, read from a response body as it
/// arrives.
///
/// Iteration ends after `[DONE]`. It throws when the stream fails: an error
/// event, a malformed chunk, a transport error, or a body that ends before
/// the stream is complete (mid-event, or with neither `[DONE]` nor a
/// `finish_reason`), or a line, event or stream larger than its bound in
/// `ResponseLimits` (a ``ChatCompletionsError/Kind/limitExceeded`` error),
/// as `LanguageModelError` where one fits and ``ChatCompletionsError``
/// otherwise. Cancelling the iterating task cancels the request.
public struct ChatCompletionChunkStream: AsyncSequence, Sendable {
  /// Each element is one decoded chunk.
  public typealias Element = ChatCompletionChunk

  private let body: HTTPBody
  private let decoder: ChunkDecoder
  private let limits: ResponseLimits
  private let start: ContinuousClock.Instant

  /// Creates a stream that decodes the chunks of an SSE body from any source,
  /// such as a recorded file, reading it under `limits`.
  package init(body: AsyncThrowingStream<Data, any Error>, limits: ResponseLimits = ResponseLimits()) {
    self.init(body: HTTPBody(body), decoder: ChunkDecoder(), limits: limits)
  }

  init(
    body: AsyncThrowingStream<Data, any Error>, decoder: ChunkDecoder,
    limits: ResponseLimits = ResponseLimits()
  ) {
    self.init(body: HTTPBody(body), decoder: decoder, limits: limits)
  }

  /// Creates a stream of `body` under `limits`, whose duration counts from `start`.
  init(
    body: HTTPBody, decoder: ChunkDecoder, limits: ResponseLimits = ResponseLimits(),
    start: ContinuousClock.Instant = .now
  ) {
    self.body = body
    self.decoder = decoder
    self.limits = limits
    self.start = start
  }

  /// Creates the iterator; a stream can be iterated once.
  public func makeAsyncIterator() -> Iterator {
    Iterator(bytes: body.makeAsyncIterator(), decoder: decoder, limits: limits, start: start)
  }

  /// Reads bytes, parses events and decodes chunks on demand.
  public struct Iterator: AsyncIteratorProtocol {
    private var bytes: HTTPBody.AsyncIterator
    private let decoder: ChunkDecoder
    private var parser: ServerSentEventParser
    private let maximumStreamBytes: Int?
    private let maximumStreamDuration: TimeInterval?
    private let deadline: ContinuousClock.Instant?
    private var receivedBytes = 0
    private var pending: [ServerSentEvent] = []
    private var pendingIndex = 0
    private var sawFinishReason = false
    private var sawAnyEvent = false
    private var finished = false

    init(
      bytes: HTTPBody.AsyncIterator, decoder: ChunkDecoder, limits: ResponseLimits,
      start: ContinuousClock.Instant
    ) {
      self.bytes = bytes
      self.decoder = decoder
      self.parser = ServerSentEventParser(
        maximumLineBytes: limits.maximumLineBytes, maximumEventBytes: limits.maximumEventBytes)
      self.maximumStreamBytes = limits.maximumStreamBytes
      self.maximumStreamDuration = limits.maximumStreamDuration
      self.deadline = limits.maximumStreamDuration.map { seconds in
        start + .milliseconds(Int64(Swift.min(seconds, 1e12) * 1_000))
      }
    }

    /// The next chunk, or `nil` after `[DONE]`.
    ///
    /// Once the iterating task is cancelled, the next call throws
    /// `CancellationError`, even when chunks already read are waiting: a
    /// cancelled reader never sees the stream end as if it had completed.
    public mutating func next() async throws -> ChatCompletionChunk? {
      if !finished, Task.isCancelled {
        finished = true
        throw CancellationError()
      }
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
        pending = try parse(data)
        pendingIndex = 0
        sawAnyEvent = sawAnyEvent || !pending.isEmpty
      }
      return nil
    }

    /// Parses the next bytes under the stream's bounds; past a bound, the
    /// stream is over (the caller stops iterating, which closes the connection).
    private mutating func parse(_ data: Data) throws(ChatCompletionsFailure) -> [ServerSentEvent] {
      if let deadline, let maximumStreamDuration, ContinuousClock.now >= deadline {
        finished = true
        throw .other(
          ChatCompletionsError(
            kind: .limitExceeded,
            message:
              "the event stream was still going after \(ResponseLimits.describe(seconds: maximumStreamDuration)) "
              + "(ResponseLimits.maximumStreamDuration); the request was stopped"))
      }
      receivedBytes += data.count
      if let maximumStreamBytes, receivedBytes > maximumStreamBytes {
        finished = true
        throw .other(
          ChatCompletionsError(
            kind: .limitExceeded,
            message:
              "the event stream went past \(ResponseLimits.describe(bytes: maximumStreamBytes)) in all "
              + "(ResponseLimits.maximumStreamBytes); the request was stopped"))
      }
      do {
        return try parser.parse(data)
      } catch {
        finished = true
        let setting = error.bound == .line ? "maximumLineBytes" : "maximumEventBytes"
        throw .other(
          ChatCompletionsError(
            kind: .limitExceeded,
            message: "the server sent \(error) (ResponseLimits.\(setting)); the request was stopped"))
      }
    }

    private mutating func endOfBody() throws -> ChatCompletionChunk? {
      finished = true
      // `data: [DONE]` without the blank line after it is the end all the same.
      if let last = parser.unterminatedEventData, ServerSentEvent.isDone(last) {
        parser.finish()
        return nil
      }
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
