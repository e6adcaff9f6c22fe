import Foundation
import Synchronization
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// Counts the calls of a buffer's `resumeProducer`.
private final class ResumeCounter: Sendable {
  private let count = Mutex(0)
  var value: Int { count.withLock { $0 } }
  func increment() { count.withLock { $0 += 1 } }
}

private func bytes(_ count: Int) -> Data {
  Data(repeating: 0x62, count: count)
}

/// The buffer's marks exactly: the producer pauses once the buffered bytes
/// reach the high-water mark, and resumes once the consumer has drained them
/// to the low-water mark, a quarter of the high one rounded down.
@Suite(.timeLimit(.minutes(10)))
struct HTTPBodyBufferWaterMarkTests {
  @Test func `the low-water mark is a quarter of the high one, rounded down`() {
    // 10 / 4 = 2.5, rounded down: 2. 8 / 4 = 2 exactly. 3 / 4 = 0.75: 0.
    #expect(HTTPBodyBuffer(highWaterMark: 10).lowWaterMark == 2)
    #expect(HTTPBodyBuffer(highWaterMark: 8).lowWaterMark == 2)
    #expect(HTTPBodyBuffer(highWaterMark: 3).lowWaterMark == 0)
    // Below 1 counts as 1.
    #expect(HTTPBodyBuffer(highWaterMark: 0).highWaterMark == 1)
  }

  @Test func `one byte under the high-water mark goes on, exactly at it pauses`() {
    let buffer = HTTPBodyBuffer(highWaterMark: 10)
    // 4 + 5 = 9 bytes: one under the mark.
    #expect(buffer.offer(bytes(4), canRefuse: false) == .accepted)
    #expect(buffer.offer(bytes(5), canRefuse: true) == .accepted)
    // 9 + 1 = 10: at the mark.
    #expect(buffer.offer(bytes(1), canRefuse: true) == .acceptedThenPause)
    // At the mark a producer that can hold on to its piece is refused; one that cannot is not.
    #expect(buffer.offer(bytes(1), canRefuse: true) == .refused)
    #expect(buffer.bufferedByteCount == 10)
    #expect(buffer.offer(bytes(1), canRefuse: false) == .acceptedThenPause)
    #expect(buffer.bufferedByteCount == 11)
  }

  @Test func `a paused producer resumes when the buffer is drained to exactly the low-water mark`()
    async throws
  {
    let resumes = ResumeCounter()
    let buffer = HTTPBodyBuffer(highWaterMark: 10, resumeProducer: { resumes.increment() })
    // 4 + 4 + 2 = 10: paused. The low-water mark is 10 / 4 = 2 (2.5 rounded down).
    _ = buffer.offer(bytes(4), canRefuse: true)
    _ = buffer.offer(bytes(4), canRefuse: true)
    #expect(buffer.offer(bytes(2), canRefuse: true) == .acceptedThenPause)
    _ = try await buffer.next()
    #expect(buffer.bufferedByteCount == 6)
    #expect(resumes.value == 0)
    _ = try await buffer.next()
    #expect(buffer.bufferedByteCount == 2)
    #expect(resumes.value == 1)
  }

  @Test func `a paused producer stays paused one byte above the low-water mark`() async throws {
    let resumes = ResumeCounter()
    let buffer = HTTPBodyBuffer(highWaterMark: 10, resumeProducer: { resumes.increment() })
    // 4 + 3 + 3 = 10: paused. Draining to 3, one above the mark of 2, does not resume.
    _ = buffer.offer(bytes(4), canRefuse: true)
    _ = buffer.offer(bytes(3), canRefuse: true)
    #expect(buffer.offer(bytes(3), canRefuse: true) == .acceptedThenPause)
    _ = try await buffer.next()
    _ = try await buffer.next()
    #expect(buffer.bufferedByteCount == 3)
    #expect(resumes.value == 0)
    _ = try await buffer.next()
    #expect(buffer.bufferedByteCount == 0)
    #expect(resumes.value == 1)
  }
}
