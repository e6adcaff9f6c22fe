import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// A body that yields `piece` forever (until the reader stops), `delay` apart.
private func endless(_ piece: Data, delay: Duration? = nil) -> AsyncThrowingStream<Data, any Error> {
  AsyncThrowingStream { continuation in
    let task = Task {
      while !Task.isCancelled {
        if case .terminated = continuation.yield(piece) { return }
        if let delay { try? await Task.sleep(for: delay) } else { await Task.yield() }
      }
    }
    continuation.onTermination = { _ in task.cancel() }
  }
}

@Suite(.timeLimit(.minutes(10)))
struct BoundedBodyReaderTests {
  @Test func `a whole body under the bound is read whole`() async {
    let body = AsyncThrowingStream<Data, any Error> { continuation in
      continuation.yield(Data("hello ".utf8))
      continuation.yield(Data("world".utf8))
      continuation.finish()
    }
    let read = await BoundedBodyReader.read(body, maximumBytes: 11, timeLimit: 30)
    #expect(read == ErrorBody(data: Data("hello world".utf8)))
    #expect(read.stopNote == nil)
  }

  @Test func `a body that ends one byte past the bound is cut there, not read as whole`() async {
    // "hello world!" is 12 bytes: one past a bound of 11, in one piece and in two.
    for pieces in [["hello world!"], ["hello ", "world!"]] {
      let body = AsyncThrowingStream<Data, any Error> { continuation in
        for piece in pieces { continuation.yield(Data(piece.utf8)) }
        continuation.finish()
      }
      let read = await BoundedBodyReader.read(body, maximumBytes: 11, timeLimit: 30)
      #expect(read == ErrorBody(data: Data("hello world".utf8), stop: .sizeLimit(11)), "\(pieces)")
    }
  }

  @Test func `a body that fills the bound exactly and then ends is whole`() async {
    // 6 + 5 = 11 bytes against a bound of 11, then the end: nothing was left unread.
    let body = AsyncThrowingStream<Data, any Error> { continuation in
      continuation.yield(Data("hello ".utf8))
      continuation.yield(Data("world".utf8))
      continuation.yield(Data())
      continuation.finish()
    }
    let read = await BoundedBodyReader.read(body, maximumBytes: 11, timeLimit: 30)
    #expect(read == ErrorBody(data: Data("hello world".utf8)))
  }

  @Test func `an endless body stops at the size bound instead of skipping what follows`() async {
    let read = await BoundedBodyReader.read(
      endless(Data(repeating: 0x61, count: 1000)), maximumBytes: 2500, timeLimit: 30)
    #expect(read.data == Data(repeating: 0x61, count: 2500))
    #expect(read.stop == .sizeLimit(2500))
  }

  @Test func `a body that trickles forever stops at the time bound with what came`() async {
    let read = await BoundedBodyReader.read(
      endless(Data("e".utf8), delay: .milliseconds(10)), maximumBytes: 1 << 20, timeLimit: 0.3)
    #expect(read.stop == .timeLimit(0.3))
    #expect(!read.data.isEmpty && read.data.allSatisfy { $0 == 0x65 })
  }

  @Test func `a body that fails part way keeps the bytes before the failure`() async {
    struct Broken: Error {}
    let body = AsyncThrowingStream<Data, any Error> { continuation in
      continuation.yield(Data("partial".utf8))
      continuation.finish(throwing: Broken())
    }
    let read = await BoundedBodyReader.read(body, maximumBytes: 100, timeLimit: 30)
    #expect(read.data == Data("partial".utf8))
    guard case .failed = read.stop else {
      Issue.record("expected a failure, got \(String(describing: read.stop))")
      return
    }
  }

  @Test func `an error body stopped by time or by a failure says which, with the seconds as given`() {
    let mapper = ErrorMapper()
    let slow = ErrorBody(data: Data("partial".utf8), stop: .timeLimit(0.25))
    #expect(
      mapper.failure(status: 502, headers: HTTPHeaderFields(), body: slow).error.message
        == "partial (the server was still sending the body after 0.25 s, when the client stopped reading)")
    let whole = ErrorBody(data: Data("partial".utf8), stop: .timeLimit(10))
    #expect(
      whole.stopNote == "the server was still sending the body after 10 s, when the client stopped reading")
    let broken = ErrorBody(data: Data("partial".utf8), stop: .failed("connection reset by peer"))
    #expect(
      mapper.failure(status: 502, headers: HTTPHeaderFields(), body: broken).error.message
        == "partial (the body broke off: connection reset by peer)")
  }

  @Test func `an error body cut at the cap gives the status, an excerpt and a note`() {
    var mapper = ErrorMapper(redaction: Redaction(secrets: ["sk-cap-secret-42"]))
    mapper.now = { Date(timeIntervalSince1970: 0) }
    let body = ErrorBody(
      data: Data(("boom " + String(repeating: "y", count: 5000) + " sk-cap-secr").utf8),
      stop: .sizeLimit(1 << 20))
    let failure = mapper.failure(status: 500, headers: HTTPHeaderFields(), body: body)
    #expect(failure.error.status == 500)
    #expect(failure.error.message.hasPrefix("boom yyy"))
    #expect(
      failure.error.message.hasSuffix("(the body was cut off at 1 MiB, where the client stopped reading)"))
    #expect(!failure.error.message.contains("sk-cap"))
  }
}
