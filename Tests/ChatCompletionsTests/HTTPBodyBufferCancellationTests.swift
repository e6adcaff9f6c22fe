import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// Counts the calls of a buffer's `cancelProducer`, and signals the first.
private final class CancelCounter: Sendable {
  private let count = Mutex(0)
  let first = TestSignal()
  var value: Int { count.withLock { $0 } }
  func increment() {
    count.withLock { $0 += 1 }
    first.fire()
  }
}

private struct ConnectionReset: Error, Equatable {}

/// What a response body's buffer does when its reader goes away or the
/// transfer ends: the transfer is stopped once, what was buffered is let go,
/// and bytes received before an error are still read.
@Suite(.timeLimit(.minutes(10)))
struct HTTPBodyBufferCancellationTests {
  @Test func `a reader that leaves lets go of the buffered bytes and stops the transfer once`() async {
    let cancels = CancelCounter()
    let buffer = HTTPBodyBuffer(highWaterMark: 10, cancelProducer: { cancels.increment() })
    #expect(buffer.offer(Data("abcd".utf8), canRefuse: true) == .accepted)
    #expect(buffer.bufferedByteCount == 4)
    buffer.consumerDidLeave()
    #expect(buffer.bufferedByteCount == 0)
    #expect(cancels.value == 1)
    // Leaving again (the task's cancel handler after the body was dropped) stops nothing more.
    buffer.consumerDidLeave()
    #expect(cancels.value == 1)
    // The producer is told to stop, and a late read gets no stale bytes.
    #expect(buffer.offer(Data("efg".utf8), canRefuse: true) == .consumerGone)
    #expect(buffer.offer(Data("h".utf8), canRefuse: false) == .consumerGone)
    #expect(buffer.bufferedByteCount == 0)
    await #expect(throws: CancellationError.self) { try await buffer.next() }
  }

  @Test func `a reader that leaves after the body ended does not cancel the finished transfer`() async throws
  {
    let cancels = CancelCounter()
    let buffer = HTTPBodyBuffer(highWaterMark: 10, cancelProducer: { cancels.increment() })
    _ = buffer.offer(Data("done".utf8), canRefuse: true)
    buffer.finish()
    #expect(try await buffer.next() == Data("done".utf8))
    buffer.consumerDidLeave()
    #expect(cancels.value == 0)
  }

  @Test func `cancelling the reading task stops the transfer and ends the read`() async throws {
    let cancels = CancelCounter()
    let buffer = HTTPBodyBuffer(highWaterMark: 10, cancelProducer: { cancels.increment() })
    let reader = Task { try await buffer.next() }
    // Whether the read is already waiting or not yet started, the cancel reaches the transfer.
    reader.cancel()
    try await cancels.first.wait(upTo: .seconds(30))
    let result = await reader.result
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(cancels.value == 1)
    #expect(buffer.offer(Data("late".utf8), canRefuse: true) == .consumerGone)
  }

  @Test func `dropping a body before its end stops the transfer, after its end does not`() async throws {
    let cancels = CancelCounter()
    let buffer = HTTPBodyBuffer(highWaterMark: 10, cancelProducer: { cancels.increment() })
    _ = buffer.offer(Data("one".utf8), canRefuse: true)
    _ = buffer.offer(Data("two".utf8), canRefuse: true)
    do {
      // Leaving the loop early, as a caller that has what it needs does.
      for try await piece in HTTPBody(buffer: buffer) {
        #expect(piece == Data("one".utf8))
        break
      }
    }
    #expect(cancels.value == 1)
    #expect(buffer.bufferedByteCount == 0)

    let finished = CancelCounter()
    let whole = HTTPBodyBuffer(highWaterMark: 10, cancelProducer: { finished.increment() })
    _ = whole.offer(Data("all".utf8), canRefuse: true)
    whole.finish()
    do {
      var pieces: [Data] = []
      for try await piece in HTTPBody(buffer: whole) { pieces.append(piece) }
      #expect(pieces == [Data("all".utf8)])
    }
    #expect(finished.value == 0)
  }

  @Test func `bytes received before a transfer error are read before the error`() async throws {
    let buffer = HTTPBodyBuffer(highWaterMark: 10)
    _ = buffer.offer(Data("data: {}\n".utf8), canRefuse: true)
    buffer.finish(throwing: ConnectionReset())
    #expect(try await buffer.next() == Data("data: {}\n".utf8))
    await #expect(throws: ConnectionReset.self) { try await buffer.next() }
    // The end is final: a second finish does not replace the error.
    buffer.finish()
    await #expect(throws: ConnectionReset.self) { try await buffer.next() }
  }
}
