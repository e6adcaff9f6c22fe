import Foundation
import Synchronization

@testable import ChatCompletions
@testable import HTTPStreaming

/// A transport that answers from a script instead of a socket: each request
/// gets the head and the body pieces (and optional failure) that `respond`
/// returns for it. Records every request it was sent.
final class InMemoryTransport: HTTPTransport {
  /// One scripted answer.
  struct Answer: Sendable {
    var status: Int
    var headers: [String: String] = [:]
    var pieces: [Data] = []
    /// Thrown after the pieces, as the transport's error.
    var failure: (any Error)?

    init(status: Int = 200, headers: [String: String] = [:], pieces: [Data] = [], failure: (any Error)? = nil)
    {
      self.status = status
      self.headers = headers
      self.pieces = pieces
      self.failure = failure
    }

    /// A 200 `text/event-stream` answer with this body text, in one piece.
    static func stream(_ text: String, failure: (any Error)? = nil) -> Answer {
      Answer(headers: ["Content-Type": "text/event-stream"], pieces: [Data(text.utf8)], failure: failure)
    }

    /// A JSON answer.
    static func json(_ status: Int, _ text: String, headers: [String: String] = [:]) -> Answer {
      Answer(
        status: status, headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a },
        pieces: [Data(text.utf8)])
    }
  }

  private let respond: @Sendable (HTTPRequest) throws -> Answer
  private let recorded = Mutex<[HTTPRequest]>([])
  private let open = Mutex(0)

  init(respond: @escaping @Sendable (HTTPRequest) throws -> Answer) {
    self.respond = respond
  }

  /// Answers every request the same.
  convenience init(_ answer: Answer) {
    self.init { _ in answer }
  }

  /// The requests sent so far, in order.
  var requests: [HTTPRequest] {
    recorded.withLock { $0 }
  }

  var inFlightRequestCount: Int {
    open.withLock { $0 }
  }

  func send(_ request: HTTPRequest) async throws -> StreamingHTTPResponse {
    try Task.checkCancellation()
    recorded.withLock { $0.append(request) }
    let answer = try respond(request)
    open.withLock { $0 += 1 }
    let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
    continuation.onTermination = { [weak self] _ in self?.open.withLock { $0 -= 1 } }
    for piece in answer.pieces {
      continuation.yield(piece)
    }
    continuation.finish(throwing: answer.failure)
    return StreamingHTTPResponse(
      status: answer.status, headers: HTTPHeaderFields(answer.headers), body: HTTPBody(stream))
  }
}

/// SSE text for a chunk with this content and finish reason.
func sseChunk(_ content: String? = nil, finish: String? = nil) -> String {
  let delta = content.map { #"{"content":"\#($0)"}"# } ?? "{}"
  let finishText = finish.map { #""\#($0)""# } ?? "null"
  return #"data: {"id":"c","object":"chat.completion.chunk","created":0,"model":"m","#
    + #""choices":[{"index":0,"delta":\#(delta),"finish_reason":\#(finishText)}]}"# + "\n\n"
}
