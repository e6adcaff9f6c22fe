import Foundation

/// A response body as it arrives: an asynchronous sequence of byte pieces in
/// the sizes the network delivered them.
///
/// Iterate it once. Breaking out of the loop, cancelling the iterating task,
/// or dropping the body without reading it to the end stops the request and
/// closes its connection.
package struct HTTPBody: AsyncSequence, Sendable {
  /// One piece of the body.
  package typealias Element = Data

  private enum Source: Sendable {
    case buffer(HTTPBodyBuffer, Reader)
    case stream(AsyncThrowingStream<Data, any Error>)
  }

  /// Tells the buffer that its consumer left when the last copy of the body
  /// and of its iterator is gone.
  fileprivate final class Reader: Sendable {
    let buffer: HTTPBodyBuffer

    init(buffer: HTTPBodyBuffer) {
      self.buffer = buffer
    }

    deinit {
      buffer.consumerDidLeave()
    }
  }

  private let source: Source

  /// A body read from a transport's buffer.
  package init(buffer: HTTPBodyBuffer) {
    source = .buffer(buffer, Reader(buffer: buffer))
  }

  /// A body that yields the pieces of a stream (a recorded file, a test's bytes).
  package init(_ stream: AsyncThrowingStream<Data, any Error>) {
    source = .stream(stream)
  }

  /// A body that yields these pieces, then ends (or throws `error`).
  package init(pieces: [Data], error: (any Error)? = nil) {
    self.init(
      AsyncThrowingStream { continuation in
        for piece in pieces {
          continuation.yield(piece)
        }
        continuation.finish(throwing: error)
      })
  }

  /// The bytes received and not yet read, for a body read from a transport's
  /// buffer (`nil` for a body made from a stream): the memory back-pressure
  /// bounds, at most the buffer's high-water mark plus one piece.
  package var bufferedByteCount: Int? {
    switch source {
    case .buffer(let buffer, _): buffer.bufferedByteCount
    case .stream: nil
    }
  }

  /// Creates the iterator.
  package func makeAsyncIterator() -> AsyncIterator {
    switch source {
    case .buffer(let buffer, let reader): AsyncIterator(source: .buffer(buffer, reader))
    case .stream(let stream): AsyncIterator(source: .stream(stream.makeAsyncIterator()))
    }
  }

  /// Reads the pieces in order.
  package struct AsyncIterator: AsyncIteratorProtocol {
    fileprivate enum IteratorSource {
      case buffer(HTTPBodyBuffer, Reader)
      case stream(AsyncThrowingStream<Data, any Error>.Iterator)
    }

    fileprivate var source: IteratorSource

    /// The next piece, or `nil` at the end of the body.
    package mutating func next() async throws -> Data? {
      switch source {
      case .buffer(let buffer, _):
        return try await buffer.next()
      case .stream(var iterator):
        let piece = try await iterator.next()
        source = .stream(iterator)
        return piece
      }
    }
  }
}
